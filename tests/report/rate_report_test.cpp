// --rate in the reports: the text's rate lines, the JSON's fields, the live table's columns.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/json_report.hpp"
#include "report/live_row.hpp"
#include "report/text_report.hpp"
#include "tests/report/results.hpp"

namespace stampede::report {
namespace {

using namespace std::chrono_literals;
using statistics::Summary;

/// --rate 100 -c 50 -z 10s: 1000 requests, each 1 ms of service, 4 ms from its due time and
/// 0.1 ms late to start; 7 users started, 30 requests waited for one, 5 were never sent.
Summary rated() {
  Summary s;
  s.info = {{model::Scheme::http, "127.0.0.1", 8080}, "/", 50, 0, 1, true, {"GET /"}, 100, 10s};
  for (int i = 0; i < 1000; ++i) {
    auto r = result(4ms, model::ErrorKind::none, 200);
    r.scheduled = true;
    r.service = 1ms;
    r.lag = 100us;
    s.total.add(r);
  }
  s.total.rate.capped = 30;
  s.total.rate.capped_starting = 12;
  s.total.rate.missed = 5;
  s.elapsed = 10'200ms;
  s.users_started = 7;
  s.stop_reason = statistics::StopReason::duration;
  return s;
}

TEST(RateReport, TheTextSaysWhatLatencyCountsFromAndWhatTheCapHeldBack) {
  const auto text = text_report(rated());
  EXPECT_TRUE(contains(text, "Concurrency Level:      50 at most (-c), 7 started\n")) << text;
  EXPECT_TRUE(contains(text, "Time per request:       4.000 [ms] (mean, from due)\n"));
  EXPECT_TRUE(contains(text, "Rate:                   100.00 requests/s asked, 100.00 started\n"));
  EXPECT_TRUE(contains(text, "Service time:           p50 1.000, p99 1.000, max 1.000 ms"));
  EXPECT_TRUE(contains(text, "Generator lag:          p50 0.100, p99 0.100, max 0.100 ms"));
  EXPECT_TRUE(contains(text, "Capped:                 30 requests came due with all 50 users"));
  EXPECT_TRUE(contains(text,
                       "; 12 of them while users were still connecting (on their first "
                       "request)\n"))
      << text;
  EXPECT_TRUE(contains(text, "Missed:                 5 requests never sent"));
  EXPECT_FALSE(contains(text, "had not started"));    // users start as the schedule needs them
  EXPECT_TRUE(contains(text, "  99%      4.000\n"));  // the percentiles are the corrected ones
}

// Over streams the schedule starts streams, whose events follow at the server's pace.
TEST(RateReport, OverStreamsTheScheduleIsOfStreams) {
  auto summary = rated();
  summary.info.stream_unit = "event";
  const auto text = text_report(summary);
  EXPECT_TRUE(contains(text, "Rate:                   100.00 streams/s asked, 100.00 started\n"))
      << text;
  EXPECT_TRUE(contains(text,
                       "Latency:                a stream's first event from the stream's "
                       "due time (corrected for coordinated omission)\n"));
  EXPECT_TRUE(contains(text, "Capped:                 30 streams came due with all 50 users"));
  EXPECT_TRUE(contains(text, "Missed:                 5 streams never started"));
}

TEST(RateReport, AClosedRunHasNoRateLines) {
  auto summary = rated();
  summary.info.rate = 0;
  const auto text = text_report(summary);
  EXPECT_FALSE(contains(text, "Rate:"));
  EXPECT_FALSE(contains(text, "Service time:"));
  EXPECT_TRUE(contains(text, "Concurrency Level:      50\n"));
  const auto json = nlohmann::json::parse(json_report(summary));
  EXPECT_FALSE(json.contains("rate"));
  EXPECT_FALSE(json.contains("service_time_ms"));
  EXPECT_FALSE(json.contains("lag_ms"));
}

TEST(RateReport, JsonKeepsLatencyCorrectedAndServiceTimeBesideIt) {
  const auto json = nlohmann::json::parse(json_report(rated()));
  EXPECT_EQ(json["latency_ms"]["p99"], 4.0);
  EXPECT_EQ(json["service_time_ms"]["p99"], 1.0);
  EXPECT_EQ(json["service_time_ms"]["max"], 1.0);
  EXPECT_EQ(json["lag_ms"], (nlohmann::json{{"p50", 0.1}, {"p99", 0.1}, {"max", 0.1}}));
  EXPECT_EQ(json["rate"]["asked"], 100.0);
  EXPECT_EQ(json["rate"]["started"], 100.0);  // 1000 over the 10 s window
  EXPECT_EQ(json["rate"]["scheduled"], 1000);
  EXPECT_EQ(
      json["rate"]["cap"],
      (nlohmann::json{{"users", 50}, {"capped", 30}, {"capped_starting", 12}, {"missed", 5}}));
}

TEST(RateReport, TheLiveTableAddsLagAndCappedColumns) {
  const auto header = live_header(false, true);
  EXPECT_TRUE(contains(header, "\u2502 lag p99\u2502   capped\u2502 codes\n")) << header;
  const auto row = live_row(rated());
  EXPECT_TRUE(contains(row, "\u2502    0.10\u2502       30\u2502 200:1000\n")) << row;
  EXPECT_FALSE(contains(live_header(), "lag"));
}

}  // namespace
}  // namespace stampede::report
