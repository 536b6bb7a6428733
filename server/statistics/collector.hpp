// The statistics actor: receives each thread's metrics once a tick and keeps the run's Summary.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <chrono>
#include <cstdint>
#include <functional>

#include "server/statistics/summary.hpp"

namespace stampede::statistics {

/// What one thread ships per tick: the metrics since its last tick and its users' state.
struct Tick {
  Metrics delta;
  std::uint64_t users_running = 0;
  std::uint64_t in_flight = 0;
};

/// Threads send Ticks here; only the collector receives.
using TickChannel =
    boost::asio::experimental::concurrent_channel<void(boost::system::error_code, Tick)>;

/// Called once a second with the Summary so far (the live row is printed from it).
using TickHandler = std::function<void(const Summary&)>;

/// Merges ticks into the Summary. Lives on one executor; only its coroutines touch its state.
class Collector {
 public:
  /// `sources`: how many threads send a Tick per second.
  Collector(boost::asio::any_io_executor executor, std::size_t sources, RunInfo info,
            TickHandler on_tick);

  /// The channel the threads send on (room for two ticks a thread).
  TickChannel& channel() { return channel_; }

  /// Receives one Tick from every source, closes the second ending at `elapsed` and calls
  /// the tick handler. If cancelled part-way, what arrived is kept for finish().
  boost::asio::awaitable<void> collect_second(std::chrono::nanoseconds elapsed);

  /// After every thread has stopped: takes what is still queued and each thread's remainder,
  /// closes the last (partial) second and returns the final Summary.
  Summary finish(std::vector<Tick> remainders, std::chrono::nanoseconds elapsed,
                 StopReason reason);

 private:
  void absorb(Tick tick);
  void close_second(std::chrono::nanoseconds elapsed);

  TickChannel channel_;
  std::size_t sources_;
  TickHandler on_tick_;
  Summary summary_;
  Metrics interval_;                  ///< this second's metrics so far
  std::uint64_t running_ = 0;         ///< users running, summed over this second's ticks
  std::chrono::nanoseconds second_start_{0};
};

}  // namespace stampede::statistics
