// CSV outputs: a row a second, a row a sweep step, and ab's -e percentile file.
#include "report/csv_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

namespace stampede::report {
namespace {

using namespace std::chrono_literals;

model::Result result(std::int64_t latency_ms, int status) {
  model::Result r;
  r.error = status == 200 ? model::ErrorKind::none : model::ErrorKind::verify;
  r.status = status;
  r.latency = std::chrono::milliseconds{latency_ms};
  return r;
}

TEST(CsvReport, OneRowASecondUnderOneHeader) {
  statistics::Summary summary;
  statistics::Metrics second;
  for (int i = 1; i <= 10; ++i) second.add(result(i, i == 10 ? 503 : 200));
  summary.total.merge(second);
  summary.add_second(second, 1s, 3);
  summary.add_second({}, 500ms, 0);
  const auto csv = csv_report(summary);
  const auto header =
      "elapsed_s,users,succeeded,failed,rps,min_ms,mean_ms,p99_ms,max_ms,received_bytes_per_s,"
      "status_codes\n";
  EXPECT_TRUE(csv.starts_with(std::string(header) + "1.000,3,9,1,10.000,1.000,5.500,")) << csv;
  EXPECT_NE(csv.find(",10.000,0,200:9;503:1\n1.500,0,0,0,0.000,0.000,0.000,0.000,0.000,0,\n"),
            std::string::npos)
      << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
}

/// A run over streams (or long-lived connections) says each second what became of them.
TEST(CsvReport, StreamsAddWhatBecameOfThemEachSecond) {
  statistics::Summary summary;
  summary.info.stream_unit = "event";
  statistics::Metrics second;
  second.add(result(10, 200));
  summary.total.merge(second);
  summary.add_second(second, 1s, 2);
  summary.per_second.back().connections_open = 2;
  summary.per_second.back().connections_opened = 3;
  summary.per_second.back().connections_failed = 1;
  summary.per_second.back().connections_closed_by_server = 1;
  const auto csv = csv_report(summary);
  EXPECT_TRUE(
      csv.starts_with("elapsed_s,users,succeeded,failed,rps,min_ms,mean_ms,p99_ms,max_ms,"
                      "received_bytes_per_s,status_codes,connections_open,"
                      "connections_opened,connections_failed,"
                      "connections_closed_by_server\n"))
      << csv;
  EXPECT_TRUE(csv.ends_with(",200:1,2,3,1,1\n")) << csv;
}

TEST(CsvReport, ASweepsStepsWithTheKneeMarked) {
  server::sweep::SweepResult sweep;
  server::sweep::StepFigures two;
  two.level = 2;
  two.qps = 40;
  auto four = two;
  four.level = 4;
  four.qps = 80;
  sweep.targets = {{"http://a/?x=1,2", {two, four}, {0, 1, "why"}}};
  EXPECT_EQ(csv_sweep(sweep),
            "url,users,qps,mean_ms,p50_ms,p90_ms,p99_ms,error_share,time_per_request_ms,"
            "requests,knee\n"
            "\"http://a/?x=1,2\",2,40.000,0.000,0.000,0.000,0.000,0.000000,0.000,0,knee\n"
            "\"http://a/?x=1,2\",4,80.000,0.000,0.000,0.000,0.000,0.000000,0.000,0,broke\n");
}

TEST(PercentilesCsv, AbsHundredRowsFromTheShortest) {
  statistics::Summary summary;
  for (int i = 1; i <= 1000; ++i) summary.total.add(result(i, 200));
  const auto text = percentiles_csv(summary);
  EXPECT_TRUE(text.starts_with("Percentage served,Time in ms\n0,1.000\n1,10."));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 101);
  EXPECT_NE(text.find("\n50,50"), std::string::npos);
  EXPECT_NE(text.find("\n99,99"), std::string::npos);
}

}  // namespace
}  // namespace stampede::report
