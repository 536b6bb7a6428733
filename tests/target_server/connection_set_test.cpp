// ConnectionSet: joining and leaving in any order, closing exactly the idle, the sweep period,
// no idle timeout.
#include "target_server/connection.hpp"

#include <gtest/gtest.h>

#include <array>

#include <boost/asio/io_context.hpp>

namespace stampede::target_server {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(TargetConnectionSet, ClosesOnlyConnectionsPastTheirDeadline) {
  boost::asio::io_context context;
  std::array<boost::asio::ip::tcp::socket, 3> sockets{boost::asio::ip::tcp::socket(context),
                                                      boost::asio::ip::tcp::socket(context),
                                                      boost::asio::ip::tcp::socket(context)};
  std::array<ConnectionSet::Entry, 3> entries;
  ConnectionSet set(60s);
  const auto now = Clock::now();
  for (std::size_t i = 0; i < sockets.size(); ++i) {
    sockets[i].open(boost::asio::ip::tcp::v4());
    entries[i].socket = &sockets[i];
    entries[i].deadline = i == 1 ? now + 1s : now - 1ms;
    set.join(entries[i]);
  }
  EXPECT_EQ(set.size(), 3U);
  EXPECT_EQ(set.close_idle(now), 2U);
  EXPECT_FALSE(sockets[0].is_open());
  EXPECT_TRUE(sockets[1].is_open());
  EXPECT_FALSE(sockets[2].is_open());
  EXPECT_EQ(set.close_idle(now), 0U);  // each is closed once
  EXPECT_EQ(set.close_idle(now + 2s), 1U);

  set.leave(entries[1]);  // the middle one first: the list must stay linked
  EXPECT_EQ(set.size(), 2U);
  set.leave(entries[2]);
  set.leave(entries[0]);
  EXPECT_EQ(set.size(), 0U);
  EXPECT_EQ(set.close_idle(now + 1h), 0U);
}

TEST(TargetConnectionSet, SweepsAtATenthOfTheTimeoutWithinBounds) {
  EXPECT_EQ(ConnectionSet(60s).sweep_period(), 1s);
  EXPECT_EQ(ConnectionSet(2s).sweep_period(), 200ms);
  EXPECT_EQ(ConnectionSet(20ms).sweep_period(), 10ms);
  EXPECT_EQ(ConnectionSet(0ms).sweep_period(), 1s);  // no idle timeout: for lingering closes
}

TEST(TargetConnectionSet, WithoutAnIdleTimeoutNeverClosesAConnection) {
  const auto now = Clock::now();
  EXPECT_EQ(ConnectionSet(2s).idle_deadline(now), now + 2s);
  EXPECT_EQ(ConnectionSet(0ms).idle_deadline(now), Clock::time_point::max());

  boost::asio::io_context context;
  boost::asio::ip::tcp::socket socket(context);
  socket.open(boost::asio::ip::tcp::v4());
  ConnectionSet set(0ms);
  ConnectionSet::Entry entry{.socket = &socket, .deadline = set.idle_deadline(now)};
  set.join(entry);
  EXPECT_EQ(set.close_idle(now + std::chrono::hours(24 * 365 * 100)), 0U);
  EXPECT_TRUE(socket.is_open());
  set.leave(entry);
}

}  // namespace
}  // namespace stampede::target_server
