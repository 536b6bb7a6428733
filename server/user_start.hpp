// start_users(): a thread's users started a few at a time, so the thread serves them meanwhile.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>

namespace stampede::server {

/// Users a thread starts before it polls its sockets and timers again.
inline constexpr std::uint64_t start_batch = 16;

/// At most this many of a thread's users still starting (opening their first long-lived
/// connection) at once: enough to keep connect and upgrade busy (each takes about a
/// millisecond alone), few enough that 19,000 users' opening state (their coroutines, Beast's
/// upgrade request and response, the first read's buffer) is not all allocated at once, which
/// left 0.6 KiB per held connection of freed, unreturned memory and opened them no faster.
inline constexpr std::uint64_t start_window = 256;

/// Calls `start_one(0)` .. `start_one(users - 1)` on the calling coroutine's thread: one every
/// `spacing` when it is set (--connect-rate), else `start_batch` at a time, yielding between
/// batches. `start_one` spawns a user, whose first
/// connect() happens there and then; connect() can take milliseconds when the ephemeral ports run
/// low, and started all at once, 9,000 users kept a thread from reading any reply or running its
/// watchdog and ticks for 20 s. The yield queues this coroutine behind the thread's reactor, so
/// replies, -t and ticks are served while users start.
/// With `starting` (long-lived runs), each user waits to start until fewer than start_window of
/// the thread's users are still starting: `*starting` counts them, raised by `start_one` and
/// lowered by each user once it is under way.
/// Spacing stops at `until` (-z's end): the users left start at once, and end at once. With
/// spacing, the first user starts `offset` after the call (a thread's place among the threads,
/// so that together they start users evenly).
boost::asio::awaitable<void> start_users(
    std::uint64_t users, std::function<void(std::uint64_t)> start_one,
    std::chrono::nanoseconds spacing = {}, const std::uint64_t* starting = nullptr,
    std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max(),
    std::chrono::nanoseconds offset = {});

}  // namespace stampede::server
