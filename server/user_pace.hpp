// UserPace: when a user's next request starts: back to back, --interval, --think or --rate.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "server/rate_pacer.hpp"
#include "server/think_time.hpp"
#include "server/thread_tally.hpp"

namespace stampede::server {

/// The clock latencies are read from: steady_clock in a run, a fake in tests.
using ClockNow = std::chrono::steady_clock::time_point (*)();

/// How a user paces its requests (UserTask's); at most one of the three models is set.
struct PaceSetup {
  /// --interval: from one send to the next; 0: back to back.
  std::chrono::microseconds interval{0};
  /// --think: a pause drawn from [think_min, think_max] between requests; both 0: none.
  std::chrono::milliseconds think_min{0};
  std::chrono::milliseconds think_max{0};
  /// --think har: some step waits the pause its HAR recorded (FlowStep's request.pause).
  bool step_pauses = false;
  /// --rate: the thread's pacer and the user's first request.
  RatePacer* rate = nullptr;
  RateStart first{};
  /// The user's number on its thread (--rate, --stages: a user past ThreadTally::user_limit stops).
  std::uint32_t local = 0;
  std::uint64_t seed = 0;                          ///< --think's: the user's number in the run
  ClockNow now = &std::chrono::steady_clock::now;  ///< for -z's window
};

/// The pacing of one user, apart from what it sends and when the run ends (the user loop asks
/// it before each request), so every protocol's users follow the same models.
class UserPace {
 public:
  UserPace(const PaceSetup& setup, ThreadTally& tally,
           const boost::asio::any_io_executor& executor);

  /// Waits until the user's next request may start; `round_start`: the first step of a round
  /// (--rate paces rounds, a flow's steps follow one another); `pause`: the step's own pause
  /// (--think har), not taken at a round's start. False: the user starts no more (the run is
  /// stopping, -z's window is over, --stages took the user out, or --rate's schedule is over).
  boost::asio::awaitable<bool> wait(bool round_start, std::chrono::milliseconds pause = {});

  /// --rate, for the first step of a round: when its request was meant to start and when a
  /// user was free for it; nullopt otherwise.
  [[nodiscard]] const std::optional<RateStart>& scheduled() const { return scheduled_; }
  /// With scheduled(): from when a user was free for the request to when wait() returned, the
  /// generator's own delay.
  [[nodiscard]] std::chrono::nanoseconds lag() const { return lag_; }

  /// The user ends. --rate handed it its first request when it was started: if the run ended
  /// before the user could send it (thousands of users starting at once), that request is
  /// missed, so that every request that came due is counted somewhere.
  void end();

 private:
  boost::asio::awaitable<bool> wait_until(std::chrono::steady_clock::time_point at);
  [[nodiscard]] bool going() const;

  PaceSetup setup_;
  ThreadTally& tally_;
  ThinkTime think_;
  // Only for a pace that waits; a pointer, so that no timer sits in each user's frame.
  std::unique_ptr<boost::asio::steady_timer> timer_;
  bool first_ = true;
  std::chrono::steady_clock::time_point next_send_;  // --interval's ticker
  std::optional<RateStart> scheduled_;
  std::chrono::nanoseconds lag_{0};
};

}  // namespace stampede::server
