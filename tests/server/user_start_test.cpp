// start_users(): a thread keeps serving its timers (the watchdog, the tick) while users start.
#include "server/user_start.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>

namespace stampede::server {
namespace {

namespace net = boost::asio;

// A timer already due when the users start fires after a batch or two, not after every user
// has started (each start stands for a user's first connect(), which can take milliseconds).
TEST(StartUsers, TheThreadRunsItsTimersBetweenBatches) {
  net::io_context context(1);
  net::steady_timer due(context, std::chrono::steady_clock::time_point::min());
  std::uint64_t started = 0;
  std::uint64_t started_when_due = 0;
  due.async_wait([&](boost::system::error_code) { started_when_due = started; });
  net::co_spawn(context, start_users(1000, [&](std::uint64_t) { ++started; }), net::detached);
  context.run();
  EXPECT_EQ(started, 1000U);
  EXPECT_GE(started_when_due, 1U);
  EXPECT_LE(started_when_due, 4 * start_batch);
}

// Long-lived runs: a user starts only while fewer than start_window are still starting. Here
// the starting users get under way all together, and only once the window is full (a loop on
// the thread, not a clock), so the count is exact however slowly the machine runs.
TEST(StartUsers, AWindowKeepsAtMostThatManyStartingAtOnce) {
  net::io_context context(1);
  const std::uint64_t users = 3 * start_window;
  std::uint64_t starting = 0;
  std::uint64_t most = 0;
  std::uint64_t started = 0;
  std::function<void()> under_way = [&] {
    if (starting == start_window) starting = 0;
    if (started < users) net::post(context, under_way);
  };
  net::post(context, under_way);
  const auto start_one = [&](std::uint64_t) {
    ++started;
    most = std::max(most, ++starting);
  };
  net::co_spawn(context, start_users(users, start_one, {}, &starting), net::detached);
  context.run();
  EXPECT_EQ(started, users);
  EXPECT_EQ(most, start_window);
}

TEST(StartUsers, NoUsersStartsNothing) {
  net::io_context context(1);
  std::uint64_t started = 0;
  net::co_spawn(context, start_users(0, [&](std::uint64_t) { ++started; }), net::detached);
  context.run();
  EXPECT_EQ(started, 0U);
}

}  // namespace
}  // namespace stampede::server
