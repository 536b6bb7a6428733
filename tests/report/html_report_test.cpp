// The --html page: the distribution it draws adds up, and nothing in the data can end its script.
#include "report/html_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/report/results.hpp"

namespace stampede::report {
namespace {

using namespace std::chrono_literals;

TEST(HtmlReport, DistributionBucketsAddUpWithinTheirLimit) {
  statistics::Histogram latency;
  for (std::uint64_t v = 1000; v < 50'000'000; v = v * 101 / 100) latency.record(v);
  const auto json = nlohmann::json::parse(distribution_json(latency, 50));
  const auto& buckets = json.at("buckets");
  EXPECT_LE(buckets.size(), 50U);
  std::uint64_t counted = 0;
  double last_high = 0;
  for (const auto& bucket : buckets) {
    counted += bucket.at(2).get<std::uint64_t>();
    EXPECT_LE(last_high, bucket.at(0).get<double>());
    last_high = bucket.at(1).get<double>();
  }
  EXPECT_EQ(counted, latency.count());
}

TEST(HtmlReport, PercentilesRiseToTheMax) {
  statistics::Histogram latency;
  for (std::uint64_t v = 1; v <= 10'000; ++v) latency.record(v * 1000);
  const auto points = nlohmann::json::parse(distribution_json(latency)).at("percentiles");
  ASSERT_GT(points.size(), 20U);
  EXPECT_EQ(points.front().at(0).get<double>(), 0.0);
  EXPECT_EQ(points.back(), nlohmann::json::array({100.0, 10.0}));
  for (std::size_t i = 1; i < points.size(); ++i) {
    EXPECT_LT(points[i - 1].at(0).get<double>(), points[i].at(0).get<double>());
    EXPECT_LE(points[i - 1].at(1).get<double>(), points[i].at(1).get<double>());
  }
}

TEST(HtmlReport, DataCannotEndItsScript) {
  statistics::Summary summary;
  summary.info.steps = {"GET http://127.0.0.1/</script><!--<script>"};
  summary.total.add(result(1ms, model::ErrorKind::none, 200));
  const std::string page = html_report(summary, {{"-H", "X: </script>"}, "2026-12-02T00:00:00Z"});
  const auto data = page.find(R"(id="stampede-run">)");
  ASSERT_NE(data, std::string::npos);
  const auto end = page.find("</script>", data);
  const std::string text = page.substr(data, end - data);
  EXPECT_EQ(text.find("<!--"), std::string::npos);
  EXPECT_NE(text.find(R"(<\/script>)"), std::string::npos);
}

// The dashboard's view: the report's seconds apart, each whole, the rest as the page's data,
// and a run under way says so.
TEST(HtmlReport, ALiveViewHoldsTheSecondsApart) {
  statistics::Summary summary;
  summary.info.steps = {"GET http://127.0.0.1/"};
  for (int second = 1; second <= 3; ++second) {
    statistics::Metrics interval;
    for (int i = 0; i < second; ++i) interval.add(result(1ms, model::ErrorKind::none, 200));
    summary.total.merge(interval);
    summary.add_second(interval, 1s, 2);
  }
  summary.elapsed = 3s;
  const auto view = live_view(summary, {{"-c", "2"}, "2026-12-05T00:00:00Z"}, true, 0);
  ASSERT_EQ(view.seconds.size(), 3U);
  for (std::size_t i = 0; i < view.seconds.size(); ++i) {
    EXPECT_EQ(nlohmann::json::parse(view.seconds[i]).at("succeeded"), i + 1);
  }
  const auto data = nlohmann::json::parse(view.data);
  EXPECT_EQ(data.at("report").at("requests").at("total"), 6);
  EXPECT_FALSE(data.at("report").contains("per_second"));
  EXPECT_EQ(data.at("report").at("stop_reason"), "running");
  EXPECT_EQ(data.at("command"), nlohmann::json::array({"-c", "2"}));
  const auto ended = nlohmann::json::parse(live_view(summary, {}, false, 0).data);
  EXPECT_EQ(ended.at("report").at("stop_reason"), "completed");
  // Later, only the seconds not yet had.
  const auto later = live_view(summary, {}, true, 2);
  ASSERT_EQ(later.seconds.size(), 1U);
  EXPECT_EQ(later.seconds[0], view.seconds[2]);
}

// The dashboard's page carries its token and no run: the feed brings it.
TEST(HtmlReport, TheLivePageCarriesItsToken) {
  const std::string page = live_page({{"-c", "2"}, "2026-12-05T00:00:00Z"}, "0123abcd");
  EXPECT_NE(page.find(R"("live":{"token":"0123abcd"})"), std::string::npos);
  EXPECT_EQ(page.find(R"("report")"), std::string::npos);
}

}  // namespace
}  // namespace stampede::report
