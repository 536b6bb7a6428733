// The statistics actor: receives each thread's metrics once a tick and keeps the run's Summary.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "server/statistics/request_line.hpp"
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
  std::size_t source = 0;               ///< the thread that sent it, 0 to sources - 1
  /// The second it closes: 1 for the first tick of the run. A thread whose tick was refused
  /// sends its metrics with its next one, so its tick for N + 1 also covers second N.
  std::uint64_t second = 0;
  std::vector<statistics::RequestLine> requests;  ///< -g: each request since the last tick
};

/// Threads send Ticks here; only the collector receives.
using TickChannel =
    boost::asio::experimental::concurrent_channel<void(boost::system::error_code, Tick)>;

/// Called once a second with the Summary so far (the live row is printed from it).
using TickHandler = std::function<void(const Summary&)>;

/// -g: called with each batch of requests as their ticks arrive (a thread's second at a time),
/// from the collector's thread, with the run's start by the wall clock; every request comes
/// exactly once.
using RequestSink = std::function<void(std::span<const statistics::RequestLine>,
                                       std::chrono::system_clock::time_point)>;

/// Merges ticks into the Summary. Lives on one executor; only its coroutines touch its state.
class Collector {
 public:
  /// `sources`: how many threads send a Tick per second.
  Collector(boost::asio::any_io_executor executor, std::size_t sources, RunInfo info,
            TickHandler on_tick, RequestSink on_requests = {});

  /// The channel the threads send on (room for two ticks a thread).
  TickChannel& channel() { return channel_; }

  /// The actor's loop: merges every Tick. Closes second N, and calls the tick handler, once every
  /// source has sent its tick for N or a later one, so rows come oldest first, one per second,
  /// however late a thread's ticks arrive. Ends when the channel is closed.
  /// Never cancel it: in Asio 1.81 a cancelled receive leaves a buffered channel refusing
  /// every later try_send, which would drop a thread's metrics. Close the channel instead.
  boost::asio::awaitable<void> run();

  /// Ends run() once every Tick already sent has been received.
  void close() { channel_.close(); }

  /// After the threads have stopped and run() has ended: merges each thread's remainder and
  /// every second not closed yet into one last (partial) row, which ends at `elapsed`, and
  /// returns the final Summary.
  Summary finish(std::vector<Tick> remainders, std::chrono::nanoseconds elapsed, StopReason reason);

 private:
  /// The ticks received so far for a second that is not closed yet.
  struct Pending {
    Metrics interval;
    std::vector<Metrics> steps;
    std::chrono::nanoseconds elapsed{0};
  };

  void absorb(Tick tick, Pending& into);
  /// Closes every second that each source has reported, oldest first, calling the handler.
  void close_reported_seconds();
  void close_second(const Pending& pending, std::chrono::nanoseconds elapsed);

  TickChannel channel_;
  TickHandler on_tick_;
  RequestSink on_requests_;
  Summary summary_;
  std::map<std::uint64_t, Pending> pending_;  ///< by second number, all after closed_
  std::vector<std::uint64_t> reported_;       ///< per source: the latest second it sent
  std::vector<std::uint64_t> running_;        ///< per source: users running at its latest tick
  std::vector<std::uint64_t> in_flight_;      ///< per source: requests under way then
  std::uint64_t closed_ = 0;                  ///< the last second closed
  std::chrono::nanoseconds second_start_{0};  ///< where the next row starts
};

}  // namespace stampede::server
