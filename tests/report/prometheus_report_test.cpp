// prometheus_text: counts exact, the histogram's buckets cumulative and its +Inf bucket the count.
#include "report/prometheus_report.hpp"

#include <gtest/gtest.h>

#include "tests/report/results.hpp"

namespace stampede::report {
namespace {

using namespace std::chrono_literals;

TEST(PrometheusText, CountsByStatusAndKind) {
  statistics::Summary summary;
  for (int i = 0; i < 3; ++i) summary.total.add(result(2ms, model::ErrorKind::none, 200));
  summary.total.add(result(1ms, model::ErrorKind::verify, 503));
  summary.total.add(result(0ms, model::ErrorKind::timeout, 0));
  const auto text = prometheus_text(summary);
  EXPECT_NE(text.find("stampede_requests_total{outcome=\"succeeded\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("stampede_requests_total{outcome=\"failed\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("stampede_responses_total{status=\"503\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("stampede_errors_total{kind=\"timeout\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE stampede_request_duration_seconds histogram\n"), std::string::npos);
}

TEST(PrometheusText, HistogramBucketsAreCumulative) {
  statistics::Summary summary;
  summary.total.add(result(300us, model::ErrorKind::none, 200));
  summary.total.add(result(3ms, model::ErrorKind::none, 200));
  summary.total.add(result(30s, model::ErrorKind::none, 200));
  const auto text = prometheus_text(summary);
  EXPECT_NE(text.find("_bucket{le=\"0.00025\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("_bucket{le=\"0.0005\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("_bucket{le=\"0.005\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("_bucket{le=\"10\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("_bucket{le=\"+Inf\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("stampede_request_duration_seconds_count 3\n"), std::string::npos);
}

TEST(HistogramCountAtMost, LeavesOutTheBucketAValueSplits) {
  statistics::Histogram histogram;
  histogram.record(1000);
  histogram.record(2000);
  EXPECT_EQ(histogram.count_at_most(999), 0U);
  EXPECT_EQ(histogram.count_at_most(1500), 1U);
  EXPECT_EQ(histogram.count_at_most(2000), 2U);
}

}  // namespace
}  // namespace stampede::report
