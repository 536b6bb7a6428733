// Collector: ticks arriving out of order, late or not at all still give one row per second,
// oldest first, with every request counted once. No sockets, no clock: ticks are sent by hand.
#include "server/collector.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <ostream>
#include <vector>

namespace stampede::server {
namespace {

using namespace std::chrono_literals;
namespace net = boost::asio;

/// What one call of the tick handler saw.
struct Row {
  std::chrono::milliseconds elapsed;
  std::uint64_t completed;  ///< cumulative
  std::uint64_t users_running;
  friend bool operator==(const Row&, const Row&) = default;
};

std::ostream& operator<<(std::ostream& out, const Row& row) {
  return out << "{" << row.elapsed.count() << " ms, " << row.completed << " completed, "
             << row.users_running << " users}";
}

/// Source `source`'s tick for `second` (asked for 10 ms after the second's nominal time), with
/// `requests` successes and `users` users running.
Tick tick(std::size_t source, std::uint64_t second, std::uint64_t requests,
          std::uint64_t users = 1) {
  Tick t;
  for (std::uint64_t i = 0; i < requests; ++i) {
    model::Result r;
    r.status = 200;
    r.latency = 1ms;
    t.delta.add(r);
  }
  t.users_running = users;
  t.source = source;
  t.second = second;
  t.elapsed = std::chrono::seconds(second) + 10ms;
  return t;
}

/// A collector for two threads whose tick handler records each call.
class CollectorTest : public ::testing::Test {
 protected:
  CollectorTest()
      : collector_(context_.get_executor(), 2, {}, [this](const statistics::Summary& now) {
          rows_.push_back({std::chrono::duration_cast<std::chrono::milliseconds>(now.elapsed),
                           now.total.completed(), now.users_running});
        }) {
    net::co_spawn(context_, collector_.run(), net::detached);
  }

  /// Sends the ticks in this order, letting the collector take each before the next.
  void send(std::vector<Tick> ticks) {
    for (auto& t : ticks) {
      ASSERT_TRUE(collector_.channel().try_send(boost::system::error_code{}, std::move(t)));
      context_.poll();
    }
  }

  statistics::Summary finish(std::vector<Tick> remainders, std::chrono::nanoseconds elapsed) {
    collector_.close();
    context_.poll();
    return collector_.finish(std::move(remainders), elapsed, statistics::StopReason::completed);
  }

  net::io_context context_;
  Collector collector_;
  std::vector<Row> rows_;
};

TEST_F(CollectorTest, SecondsCloseInOrderWhateverOrderTicksArriveIn) {
  // Thread 0 was slow (busy starting users): thread 1's second 2 arrives before thread 0's 1.
  send({tick(1, 1, 3), tick(1, 2, 5), tick(0, 1, 1)});
  EXPECT_EQ(rows_, (std::vector<Row>{{1010ms, 4, 2}}));  // second 2 of thread 1 not in it yet
  send({tick(0, 2, 2)});
  EXPECT_EQ(rows_, (std::vector<Row>{{1010ms, 4, 2}, {2010ms, 11, 2}}));
}

TEST_F(CollectorTest, ALaterTickCountsAsHavingReportedTheSecondsBefore) {
  // Thread 1's tick for second 1 was refused (channel full): its tick for 2 carries both.
  send({tick(0, 1, 1), tick(1, 2, 4)});
  EXPECT_EQ(rows_, (std::vector<Row>{{1010ms, 1, 2}}));
  send({tick(0, 2, 2), tick(0, 3, 1), tick(1, 3, 1)});
  EXPECT_EQ(rows_, (std::vector<Row>{{1010ms, 1, 2}, {2010ms, 7, 2}, {3010ms, 9, 2}}));
}

TEST_F(CollectorTest, ASecondNoThreadCouldReportStillGetsItsRow) {
  send({tick(0, 2, 3, 5), tick(1, 2, 4, 7)});  // every tick for second 1 was refused
  EXPECT_EQ(rows_, (std::vector<Row>{{1000ms, 0, 12}, {2010ms, 7, 12}}));
  const auto summary = finish({}, 2500ms);
  ASSERT_EQ(summary.per_second.size(), 3U);
  EXPECT_DOUBLE_EQ(summary.per_second[0].elapsed_s, 1.0);
  EXPECT_EQ(summary.per_second[1].succeeded, 7U);
  EXPECT_DOUBLE_EQ(summary.per_second[2].elapsed_s, 2.5);
}

TEST_F(CollectorTest, FinishPutsWhatNoRowHeldInOneLastRow) {
  send({tick(0, 1, 1), tick(1, 1, 2), tick(0, 2, 4)});  // thread 1 stopped before its tick 2
  EXPECT_EQ(rows_, (std::vector<Row>{{1010ms, 3, 2}}));
  auto remainder = tick(1, 0, 8, 0);
  remainder.in_flight = 3;
  const auto summary = finish({tick(0, 0, 16, 0), remainder}, 2500ms);
  EXPECT_EQ(rows_.size(), 1U);  // the last row is the final report's, not a live one
  EXPECT_EQ(summary.total.completed(), 31U);
  EXPECT_EQ(summary.abandoned, 3U);
  EXPECT_EQ(summary.users_running, 0U);
  ASSERT_EQ(summary.per_second.size(), 2U);
  EXPECT_EQ(summary.per_second[1].succeeded, 28U);  // thread 0's second 2 and both remainders
  EXPECT_DOUBLE_EQ(summary.per_second[1].elapsed_s, 2.5);
  EXPECT_DOUBLE_EQ(summary.per_second[1].rps, 28 / 1.49);  // over the 1.49 s since the last row
}

TEST_F(CollectorTest, ARunShorterThanATickHasOneRow) {
  const auto summary = finish({tick(0, 0, 2, 0), tick(1, 0, 3, 0)}, 300ms);
  EXPECT_TRUE(rows_.empty());
  ASSERT_EQ(summary.per_second.size(), 1U);
  EXPECT_EQ(summary.per_second[0].succeeded, 5U);
  EXPECT_DOUBLE_EQ(summary.per_second[0].elapsed_s, 0.3);
  EXPECT_EQ(summary.elapsed, 300ms);
}

}  // namespace
}  // namespace stampede::server
