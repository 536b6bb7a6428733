// The statistics actor: receives each thread's metrics once a tick and keeps the run's Summary.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "server/statistics/summary.hpp"

namespace stampede::server {

using statistics::Metrics;
using statistics::RunInfo;
using statistics::StopReason;
using statistics::Summary;

/// What one thread ships per tick: the metrics since its last tick and its users' state.
struct Tick {
  Metrics delta;
  std::vector<Metrics> steps;  ///< per step of a flow, since the last tick; empty otherwise
  std::uint64_t users_running = 0;
  std::uint64_t in_flight = 0;
  std::chrono::nanoseconds elapsed{0};  ///< since the run's start, when the tick was asked for
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

  /// The actor's loop: merges every Tick; once each source's Tick for a second has arrived,
  /// closes that second and calls the tick handler. Ends when the channel is closed.
  /// Never cancel it: in Asio 1.81 a cancelled receive leaves a buffered channel refusing
  /// every later try_send, which would drop a thread's metrics. Close the channel instead.
  boost::asio::awaitable<void> run();

  /// Ends run() once every Tick already sent has been received.
  void close() { channel_.close(); }

  /// After the threads have stopped and run() has ended: merges each thread's remainder,
  /// closes the last (partial) second and returns the final Summary.
  Summary finish(std::vector<Tick> remainders, std::chrono::nanoseconds elapsed, StopReason reason);

 private:
  void absorb(Tick tick);
  void close_second(std::chrono::nanoseconds elapsed);

  TickChannel channel_;
  std::size_t sources_;
  TickHandler on_tick_;
  Summary summary_;
  Metrics interval_;           ///< this second's metrics so far
  std::uint64_t running_ = 0;  ///< users running, summed over this second's ticks
  std::size_t received_ = 0;   ///< ticks received for this second
  std::chrono::nanoseconds second_start_{0};
};

}  // namespace stampede::server
