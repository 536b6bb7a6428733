// start_users(): a thread keeps serving its timers (the watchdog, the tick) while users start.
#include "server/user_start.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <vector>

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

// Long-lived runs: a user starts only while fewer than start_window are still starting; here
// each user is under way 1 ms after it starts, so starts follow as the window frees.
TEST(StartUsers, AWindowKeepsAtMostThatManyStartingAtOnce) {
  net::io_context context(1);
  std::uint64_t starting = 0;
  std::uint64_t most = 0;
  std::uint64_t started = 0;
  std::vector<std::unique_ptr<net::steady_timer>> under_way;
  const auto start_one = [&](std::uint64_t) {
    ++started;
    most = std::max(most, ++starting);
    under_way.push_back(std::make_unique<net::steady_timer>(context, std::chrono::milliseconds(1)));
    under_way.back()->async_wait([&](boost::system::error_code) { --starting; });
  };
  net::co_spawn(context, start_users(3 * start_window, start_one, {}, &starting), net::detached);
  context.run();
  EXPECT_EQ(started, 3 * start_window);
  EXPECT_EQ(most, start_window);
  EXPECT_EQ(starting, 0U);
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
