// Live rows: go-stress-testing's fixed-width table, cumulative figures, stable column widths.
#include "report/live_row.hpp"
#include "tests/report/results.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace stampede::report {

using statistics::Second;
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
Summary row_sample() {
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
  const std::string row = live_row(row_sample());
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

TEST(LiveRow, FailedChecksFollowTheCodesByNumber) {
  Summary s;
  for (int i = 0; i < 3; ++i) {
    auto r = result(1ms, model::ErrorKind::verify, 200);
    r.failed_check = 2;
    s.total.add(r);
  }
  s.elapsed = 1s;
  EXPECT_EQ(cells(live_row(s)).back(), " 200:3;check2:3\n");
}

/// Each of `row`'s cells is as wide as its heading and its rule in the separator; returns the
/// cells.
std::vector<std::string> expect_aligned(const std::string& header, const std::string& row) {
  const std::size_t newline = header.find('\n');
  const std::vector<std::string> heading = cells(header.substr(0, newline));
  std::vector<std::string> rules;  // the separator's segments, in characters ('─' is 3 bytes)
  std::size_t start = newline + 1;
  for (std::size_t at = header.find("\u253c", start); at != std::string::npos;
       at = header.find("\u253c", start)) {
    rules.push_back(header.substr(start, at - start));
    start = at + std::string("\u253c").size();
  }
  const std::vector<std::string> parts = cells(row);
  EXPECT_EQ(parts.size(), heading.size());
  EXPECT_EQ(rules.size() + 1, heading.size());
  for (std::size_t i = 0; i + 1 < std::min(parts.size(), heading.size()); ++i) {
    EXPECT_EQ(parts[i].size(), heading[i].size()) << "column " << i << ": '" << parts[i] << "'";
    if (i < rules.size()) {
      EXPECT_EQ(rules[i].size(), 3 * heading[i].size()) << "rule " << i;
    }
  }
  return parts;
}

TEST(LiveRow, ColumnsKeepTheirWidthForLargeCounts) {
  Summary s = row_sample();
  s.total.succeeded = 12'345'678;
  s.total.failed = 10'000'000;
  s.users_running = 100'000;
  s.elapsed = 3600s;
  const std::vector<std::string> parts = expect_aligned(live_header(), live_row(s));
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

// Connection columns: a run of long-lived WebSocket connections shows what became of them.

std::string trimmed(const std::string& cell) { return cell.substr(cell.find_first_not_of(' ')); }

/// row_sample(), holding WebSocket connections: in its last second 4 open, 2 opened, 1 failed and 3
/// closed by the server, the generator having grown by 64 KiB per open connection.
Summary holding() {
  Summary s = row_sample();
  s.resident_at_start = 10 << 20;
  Second last;
  last.connections_open = 4;
  last.connections_opened = 2;
  last.connections_failed = 1;
  last.connections_closed_by_server = 3;
  last.received_bytes_per_s = 5 * 1024 + 700;  // 5.7 KiB/s, shown whole
  last.resident_bytes = (10 << 20) + 4 * 64 * 1024;
  s.per_second = {Second{}, last};  // only the last second is shown
  return s;
}

TEST(LiveRow, ConnectionColumnsFollowTheLatencies) {
  const std::string header = live_header(true);
  const auto heading = cells(header.substr(0, header.find('\n')));
  ASSERT_EQ(heading.size(), 15U);
  const std::vector<std::string> names(heading.begin() + 8, heading.end() - 1);
  std::vector<std::string> names_trimmed;
  for (const auto& name : names) names_trimmed.push_back(trimmed(name));
  EXPECT_EQ(names_trimmed, (std::vector<std::string>{"open", "+open/s", "fail/s", "closed/s",
                                                     "in KiB/s", "KiB/conn"}));
  EXPECT_EQ(heading.back(), " codes");
  const auto parts = expect_aligned(header, live_row(holding(), true));
  ASSERT_EQ(parts.size(), 15U);
  EXPECT_EQ(trimmed(parts[8]), "4");
  EXPECT_EQ(trimmed(parts[9]), "2");
  EXPECT_EQ(trimmed(parts[10]), "1");
  EXPECT_EQ(trimmed(parts[11]), "3");
  EXPECT_EQ(trimmed(parts[12]), "6");
  EXPECT_EQ(trimmed(parts[13]), "64.0");  // (resident - resident at start) / open, in KiB
  EXPECT_EQ(parts[14], " 200:1000;500:3;timeout:4\n");
}

TEST(LiveRow, ConnectionColumnsKeepTheirWidthForLargeCounts) {
  Summary s = holding();
  Second& last = s.per_second.back();
  last.connections_open = 123'456'789;
  last.connections_opened = 1'234'567;
  last.connections_failed = 1'234'567;
  last.connections_closed_by_server = 1'234'567;
  last.received_bytes_per_s = 99'999'999.0 * 1024;
  last.resident_bytes = s.resident_at_start + last.connections_open * 9000;
  const auto parts = expect_aligned(live_header(true), live_row(s, true));
  EXPECT_EQ(trimmed(parts[12]), "99999999");
  EXPECT_EQ(trimmed(parts[13]), "8.8");
}

TEST(LiveRow, NoMemoryPerConnectionWithoutAnOpenOneOrAReading) {
  const auto kib = [](const Summary& s) { return trimmed(cells(live_row(s, true))[13]); };
  Summary s = holding();
  EXPECT_EQ(kib(s), "64.0");
  s.per_second.back().connections_open = 0;
  EXPECT_EQ(kib(s), "-");
  s = holding();
  s.resident_at_start = 0;  // not read at the start
  EXPECT_EQ(kib(s), "-");
  s = holding();
  s.per_second.back().resident_bytes = 0;  // not read this second
  EXPECT_EQ(kib(s), "-");
  s = holding();
  s.per_second.back().resident_bytes = s.resident_at_start - 4096;  // shrank: nothing grew
  EXPECT_EQ(kib(s), "0.0");
  s.per_second.clear();  // before the first second
  const auto parts = cells(live_row(s, true));
  EXPECT_EQ(trimmed(parts[8]), "0");
  EXPECT_EQ(trimmed(parts[12]), "0");
  EXPECT_EQ(trimmed(parts[13]), "-");
}

TEST(LiveRow, WithoutConnectionsTheRowIsUnchanged) {
  const Summary s = holding();
  EXPECT_EQ(live_row(s, false), live_row(row_sample()));
  EXPECT_EQ(cells(live_row(s, false)).size(), 9U);
  EXPECT_EQ(live_header(false), live_header());
  EXPECT_EQ(cells(live_header(false).substr(0, live_header().find('\n'))).size(), 9U);
}

}  // namespace
}  // namespace stampede::report
