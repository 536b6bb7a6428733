// Summary: run-wide rate and the per-second rows built from interval metrics.
#include "server/statistics/summary.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace stampede::statistics {
namespace {

using namespace std::chrono_literals;

model::Result summary_result(std::int64_t latency_ms, model::ErrorKind error, int status) {
  model::Result r;
  r.error = error;
  r.status = status;
  r.latency = std::chrono::milliseconds{latency_ms};
  return r;
}

TEST(Summary, RpsIsCompletedPerElapsedSecond) {
  Summary s;
  EXPECT_EQ(s.rps(), 0.0);  // nothing elapsed yet
  for (int i = 0; i < 300; ++i) {
    s.total.add(
        summary_result(1, i % 3 == 0 ? model::ErrorKind::timeout : model::ErrorKind::none, 200));
  }
  s.elapsed = 1500ms;
  EXPECT_DOUBLE_EQ(s.rps(), 200.0);                           // failures count as completed
  EXPECT_DOUBLE_EQ(s.successes_per_second(), 200.0 * 2 / 3);  // what the server took
}

TEST(Summary, AddSecondSummarisesTheInterval) {
  Summary s;
  Metrics interval;
  for (std::int64_t ms = 1; ms <= 100; ++ms) {
    interval.add(summary_result(ms, model::ErrorKind::none, 200));
  }
  interval.add(summary_result(0, model::ErrorKind::connect, 0));
  interval.add(summary_result(7, model::ErrorKind::verify, 404));
  s.add_second(interval, 500ms, 12);

  ASSERT_EQ(s.per_second.size(), 1U);
  const Second& row = s.per_second.front();
  EXPECT_DOUBLE_EQ(row.elapsed_s, 0.5);
  EXPECT_EQ(row.users_running, 12U);
  EXPECT_EQ(row.succeeded, 100U);
  EXPECT_EQ(row.failed, 2U);
  EXPECT_DOUBLE_EQ(row.rps, 204.0);  // 102 in half a second
  EXPECT_DOUBLE_EQ(row.min_ms, 1.0);
  EXPECT_DOUBLE_EQ(row.max_ms, 100.0);
  EXPECT_DOUBLE_EQ(row.mean_ms, (5050.0 + 7) / 101);  // the verify failure had a whole response
  EXPECT_NEAR(row.p99_ms, 99.0, 99.0 * 0.01);         // rank 100 of 101 latencies is 99 ms
  EXPECT_GE(row.p99_ms, 99.0);
  EXPECT_EQ(row.status_codes, (std::map<int, std::uint64_t>{{200, 100}, {404, 1}}));
}

TEST(Summary, AddSecondAccumulatesElapsedAndHandlesEmptySeconds) {
  Summary s;
  Metrics one;
  one.add(summary_result(3, model::ErrorKind::none, 204));
  s.add_second(one, 1s, 1);
  s.add_second(Metrics{}, 1001ms, 0);
  s.add_second(one, 0ns, 1);  // a zero-length flush must not divide by zero
  ASSERT_EQ(s.per_second.size(), 3U);
  EXPECT_DOUBLE_EQ(s.per_second[0].elapsed_s, 1.0);
  EXPECT_DOUBLE_EQ(s.per_second[1].elapsed_s, 2.001);
  EXPECT_DOUBLE_EQ(s.per_second[2].elapsed_s, 2.001);
  const Second& empty = s.per_second[1];
  EXPECT_EQ(empty.rps, 0.0);
  EXPECT_EQ(empty.min_ms, 0.0);
  EXPECT_EQ(empty.mean_ms, 0.0);
  EXPECT_EQ(empty.max_ms, 0.0);
  EXPECT_EQ(empty.p99_ms, 0.0);
  EXPECT_TRUE(empty.status_codes.empty());
  EXPECT_EQ(s.per_second[2].rps, 0.0);
  EXPECT_DOUBLE_EQ(s.per_second[0].p99_ms, 3.0);
}

// Each second as the collector builds it: the interval is merged into the totals first, then
// summarised; open connections come from the totals, the rest from the interval.
TEST(Summary, AddSecondCountsLongLivedConnections) {
  Summary s;
  Metrics first;
  for (int i = 0; i < 5; ++i)
    first.add_connection(model::ExchangeRecord{}, std::chrono::milliseconds(900));
  model::Result pushed;  // --listen's message: what the server sent counts as received
  pushed.bytes_received = 3000;
  first.add(pushed);
  first.long_lived.fail(model::ErrorKind::handshake);
  s.total.merge(first);
  s.add_second(first, 1s, 6, 50'000'000);
  Metrics second;
  second.add_connection(model::ExchangeRecord{}, std::chrono::milliseconds(900));
  second.long_lived.ended = 3;
  second.long_lived.closed_by_server = 2;
  second.long_lived.fail(model::ErrorKind::timeout);
  second.long_lived.fail(model::ErrorKind::timeout);
  s.total.merge(second);
  s.add_second(second, 1s, 6, 60'000'000);
  ASSERT_EQ(s.per_second.size(), 2U);
  const Second& one = s.per_second[0];
  EXPECT_EQ(one.connections_open, 5U);
  EXPECT_EQ(one.connections_opened, 5U);
  EXPECT_EQ(one.connections_failed, 1U);
  EXPECT_EQ(one.connections_closed_by_server, 0U);
  EXPECT_EQ(one.resident_bytes, 50'000'000U);
  EXPECT_DOUBLE_EQ(one.received_bytes_per_s, 3000.0);
  const Second& two = s.per_second[1];
  EXPECT_EQ(two.connections_open, 3U);  // 6 opened - 3 ended, of the whole run
  EXPECT_EQ(two.connections_opened, 1U);
  EXPECT_EQ(two.connections_failed, 2U);
  EXPECT_EQ(two.connections_closed_by_server, 2U);
  EXPECT_EQ(two.resident_bytes, 60'000'000U);
  EXPECT_DOUBLE_EQ(two.received_bytes_per_s, 0.0);
  EXPECT_TRUE(s.long_lived());
}

TEST(Summary, LongLivedOnlyWhenConnectionsWereOpenedApartOrFailedTo) {
  Summary s;
  s.total.add(summary_result(1, model::ErrorKind::none, 200));
  s.add_second(s.total, 1s, 1);
  EXPECT_FALSE(s.long_lived());  // an HTTP run
  EXPECT_EQ(s.per_second[0].connections_open, 0U);
  EXPECT_EQ(s.per_second[0].resident_bytes, 0U);         // not read: 0
  s.total.long_lived.fail(model::ErrorKind::handshake);  // every upgrade refused
  EXPECT_TRUE(s.long_lived());
}

TEST(Summary, StopReasonNames) {
  EXPECT_EQ(std::string(to_string(StopReason::completed)), "completed");
  EXPECT_EQ(std::string(to_string(StopReason::interrupted)), "interrupted");
  EXPECT_EQ(std::string(to_string(StopReason::time_limit)), "time_limit");
}

}  // namespace
}  // namespace stampede::statistics
