// start_users(): a thread's users started a few at a time, so the thread serves them meanwhile.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>

namespace stampede::server {

/// Users a thread starts before it polls its sockets and timers again.
inline constexpr std::uint64_t start_batch = 16;

/// Calls `start_one(0)` .. `start_one(users - 1)` on the calling coroutine's thread: one every
/// `spacing` when it is set (--connect-rate), else `start_batch` at a time, yielding between
/// batches. `start_one` spawns a user, whose first
/// connect() happens there and then; connect() can take milliseconds when the ephemeral ports run
/// low, and started all at once, 9,000 users kept a thread from reading any reply or running its
/// watchdog and ticks for 20 s. The yield queues this coroutine behind the thread's reactor, so
/// replies, -t and ticks are served while users start.
boost::asio::awaitable<void> start_users(std::uint64_t users,
                                         std::function<void(std::uint64_t)> start_one,
                                         std::chrono::nanoseconds spacing = {});

}  // namespace stampede::server
