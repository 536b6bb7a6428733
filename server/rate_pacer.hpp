// RatePacer: one thread's --rate clock, which starts each request of its schedule on a free user.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "server/pacing/dispatch.hpp"
#include "server/pacing/rate_schedule.hpp"
#include "server/thread_tally.hpp"

namespace stampede::server {

/// A request of the schedule as its user gets it.
struct RateStart {
  /// When it was meant to start: its latency counts from here (coordinated omission).
  std::chrono::steady_clock::time_point due;
  /// When a user was free to start it (due, or later when every user was busy): the time
  /// from here to its actual start is the generator's own lag.
  std::chrono::steady_clock::time_point ready;
};

/// The open model on one thread (wrk2's and vegeta's, not a closed loop of users): requests
/// start on the schedule whatever the responses. The thread's users are started only as they
/// are needed (see pacing::Dispatch), so `spawn` starts user `local` with its first request (its
/// later ones it asks of `pacer`), and `on_finish` ends, for the engine's count, each user that
/// never started and then the pacer itself.
class RatePacer {
 public:
  using Clock = std::chrono::steady_clock;
  using SpawnUser = std::function<void(RatePacer& pacer, std::uint32_t local, RateStart first)>;

  RatePacer(const boost::asio::any_io_executor& executor, pacing::RateSchedule schedule,
            std::uint32_t cap, ThreadTally& tally, SpawnUser spawn,
            std::function<void()> on_finish);

  /// The clock: hands out each request as it comes due, until the schedule is over (with -z,
  /// at the window's end) or the run stops; then ends the idle users, the users that never
  /// started, and itself.
  boost::asio::awaitable<void> run();

  /// User `local` is done with its request: waits for its next one (on `wake`, the user's own
  /// timer). nullopt: the user ends (the schedule is over, or the run is stopping).
  boost::asio::awaitable<std::optional<RateStart>> next(std::uint32_t local,
                                                        boost::asio::steady_timer& wake);

  /// The run is stopping: the clock hands out nothing more.
  void stop() { clock_.cancel(); }

  /// A user starts a request the schedule gave it: the request is in flight from now.
  void note_started() { ++started_; }
  /// A user ended without starting the first request it was given: that request is missed.
  void note_missed_first() { count_missed(1); }
  /// After the threads stopped: requests that came due and never started (waiting for a user,
  /// or handed to one that never ran again before a Ctrl-C stopped its thread) are missed, so
  /// that every due request is completed, abandoned or missed.
  void settle() { count_missed(due_ - started_ - missed_); }

 private:
  void hand_out(std::uint64_t k, Clock::time_point due);
  /// Ends the idle users and those never started; past the window (or at a stop), the
  /// requests still waiting are missed.
  void finish();
  [[nodiscard]] bool over() const;
  void count_missed(std::uint64_t n) {
    tally_.metrics.rate.missed += n;
    missed_ += n;
  }

  struct Slot {
    boost::asio::steady_timer* wake = nullptr;  ///< the idle user's, while it waits
    std::optional<RateStart> start;             ///< its next request, set before it wakes
    bool first_done = false;                    ///< its first request is over (next() came)
  };

  pacing::RateSchedule schedule_;
  pacing::Dispatch dispatch_;
  ThreadTally& tally_;
  SpawnUser spawn_;
  std::function<void()> on_finish_;
  boost::asio::steady_timer clock_;
  std::vector<Slot> slots_;     ///< one a user
  std::uint32_t starting_ = 0;  ///< users started whose first request is not over
  std::uint64_t due_ = 0;       ///< requests that came due, over the whole run
  std::uint64_t started_ = 0;   ///< of those, started by a user
  std::uint64_t missed_ = 0;    ///< and counted missed
  bool finished_ = false;
};

}  // namespace stampede::server
