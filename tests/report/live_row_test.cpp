// Live rows: go-stress-testing's fixed-width table, cumulative figures, stable column widths.
#include "report/live_row.hpp"
#include "tests/report/results.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace stampede::report {

using statistics::Summary;
namespace {

using namespace std::chrono_literals;

// Cells between the '│' bars, measured in characters (the bars are multi-byte UTF-8).
std::vector<std::string> cells(const std::string& line) {
  const std::string bar = "\u2502";
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at = line.find(bar); at != std::string::npos; at = line.find(bar, start)) {
    parts.push_back(line.substr(start, at - start));
    start = at + bar.size();
  }
  parts.push_back(line.substr(start));
  return parts;
}

// 1000 successes averaging 2 ms, 3 rejected 500s at 2 ms and 4 timeouts, over 2 s.
Summary sample() {
  Summary s;
  for (int i = 0; i < 1000; ++i) {
    s.total.add(result(i % 2 == 0 ? 1ms : 3ms, model::ErrorKind::none, 200));
  }
  for (int i = 0; i < 3; ++i) {
    s.total.add(result(2ms, model::ErrorKind::verify, 500));
  }
  for (int i = 0; i < 4; ++i) {
    s.total.add(result(30s, model::ErrorKind::timeout, 0));
  }
  s.elapsed = 2s;
  s.users_running = 10;
  return s;
}

TEST(LiveRow, HeaderIsOneHeadingAndOneSeparator) {
  const std::string header = live_header();
  const std::size_t newline = header.find('\n');
  ASSERT_NE(newline, std::string::npos);
  EXPECT_EQ(header.substr(0, newline),
            " elapsed\u2502 users\u2502  success\u2502  failure\u2502       qps\u2502  max "
            "ms\u2502  min ms\u2502  avg ms\u2502 codes");
  EXPECT_EQ(header.substr(newline + 1, 3 * 8 + 3),
            "\u2500\u2500\u2500\u2500\u2500\u2500\u2500"
            "\u2500\u253c");
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(header.find('\n', newline + 1), header.size() - 1);  // exactly two lines
}

TEST(LiveRow, ShowsCumulativeFigures) {
  const std::string row = live_row(sample());
  const std::vector<std::string> parts = cells(row);
  ASSERT_EQ(parts.size(), 9u);
  EXPECT_EQ(parts[0], "    2.0s");
  EXPECT_EQ(parts[1], "    10");
  EXPECT_EQ(parts[2], "     1000");
  EXPECT_EQ(parts[3], "        7");
  EXPECT_EQ(parts[4], "    503.50");  // 1007 completed / 2 s, not go-stress-testing's c/mean
  EXPECT_EQ(parts[5], "    3.00");
  EXPECT_EQ(parts[6], "    1.00");
  EXPECT_EQ(parts[7], "    2.00");  // (500*1 + 500*3 + 3*2) / 1003 ms
  // The 3 rejected 500s are listed once, under their status, not again as verify:3.
  EXPECT_EQ(parts[8], " 200:1000;500:3;timeout:4\n");
}

TEST(LiveRow, StatusCodesOnlyWhenNothingFailed) {
  Summary s;
  for (int i = 0; i < 9800; ++i) {
    s.total.add(result(1ms, model::ErrorKind::none, 200));
  }
  for (int i = 0; i < 3; ++i) {
    s.total.add(result(1ms, model::ErrorKind::none, 500));  // no verifier: a 500 is a success
  }
  s.elapsed = 1s;
  const std::string row = live_row(s);
  EXPECT_NE(row.find("\u2502 200:9800;500:3\n"), std::string::npos) << row;
}

TEST(LiveRow, RejectedResponsesAreCountedOnceUnderTheirStatus) {
  Summary s;
  for (int i = 0; i < 5; ++i) {
    s.total.add(result(1ms, model::ErrorKind::verify, 404));
  }
  s.elapsed = 1s;
  const std::string row = live_row(s);
  EXPECT_EQ(cells(row).back(), " 404:5\n");  // not "404:5;verify:5"
}

TEST(LiveRow, ColumnsKeepTheirWidthForLargeCounts) {
  const std::vector<std::string> heading = cells(live_header().substr(0, live_header().find('\n')));
  Summary s = sample();
  s.total.succeeded = 12'345'678;
  s.total.failed = 10'000'000;
  s.users_running = 100'000;
  s.elapsed = 3600s;
  const std::vector<std::string> parts = cells(live_row(s));
  ASSERT_EQ(parts.size(), heading.size());
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    EXPECT_EQ(parts[i].size(), heading[i].size()) << "column " << i << ": '" << parts[i] << "'";
  }
  EXPECT_EQ(parts[2], " 12345678");
  EXPECT_EQ(parts[4], "   6207.13");  // 22345678 / 3600 s
}

TEST(LiveRow, EmptySummaryPrintsZeros) {
  const std::string row = live_row(Summary{});
  EXPECT_EQ(row.find("nan"), std::string::npos);
  EXPECT_EQ(row.find("inf"), std::string::npos);
  EXPECT_EQ(row,
            "    0.0s\u2502     0\u2502        0\u2502        0\u2502      0.00\u2502    "
            "0.00\u2502    0.00\u2502    0.00\u2502\n");
}

}  // namespace
}  // namespace stampede::report
