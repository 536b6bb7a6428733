// Per-thread request deadlines: one coarse timer per thread instead of one timer per I/O op.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <unordered_set>
#include <vector>

namespace stampede::client {

/// Checks the deadline of every connection on its thread a few times per timeout and cuts
/// short those past it. Arming a timer per read and write (Beast's tcp_stream) costs a
/// timerfd_settime syscall per operation when few connections are open: two extra syscalls
/// per request at -c 1. (wrk also checks on a timer, every 2 s, but never cuts a request off:
/// it counts each connection whose request is older than its timeout, once per check.) A
/// response complete past its deadline but before the next check is a timeout too
/// (ClientBase::end_exchange), so -t holds exactly whatever the check period.
class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  /// A connection with a deadline; expire() makes its pending operation fail.
  class Guarded {
   public:
    /// Clock::time_point::max() when no request is in progress.
    [[nodiscard]] virtual Clock::time_point deadline() const = 0;
    virtual void expire() = 0;
    /// The run is stopping: a connection held open (--hold) says goodbye now; others go on.
    virtual void end_hold() = 0;

   protected:
    ~Guarded() = default;
  };

  /// `timeout`: the per-request timeout; checks run often enough to keep expiry within about
  /// 5% of it (at least every 250 ms, at most every 5 ms).
  explicit Watchdog(std::chrono::nanoseconds timeout);

  void watch(Guarded* guarded) { guarded_.insert(guarded); }
  void forget(Guarded* guarded) { guarded_.erase(guarded); }

  /// Tells every connection held open (--hold) to close now, as a stopping run does.
  void end_holds() const {
    const std::vector<Guarded*> all(guarded_.begin(), guarded_.end());  // end_hold() may forget
    for (Guarded* guarded : all) guarded->end_hold();
  }

  /// The checking loop; runs on the thread's io_context until it stops.
  boost::asio::awaitable<void> run();

 private:
  std::chrono::nanoseconds period_;
  std::unordered_set<Guarded*> guarded_;
};

}  // namespace stampede::client
