// One thread's share of the run: its users' metrics, touched only by that thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "server/collector.hpp"

namespace stampede::server {

/// Per-thread state. Only the owning thread reads or writes it while the run is on, so
/// recording a request costs no lock and no atomic.
struct ThreadTally {
  statistics::Metrics metrics;             ///< since the last tick
  std::vector<statistics::Metrics> steps;  ///< per step of a flow, since the last tick
  std::uint64_t users_running = 0;
  std::uint64_t users_started = 0;  ///< since the run began; each starts a request at once
  /// Users started whose first exchange is not over (long-lived runs: start_users' window).
  std::uint64_t users_starting = 0;
  /// Requests started (connecting, sending or waiting for the reply) and not yet recorded.
  std::uint64_t in_flight = 0;
  /// The run is stopping gracefully (long-lived connections say goodbye): users send nothing
  /// more and do not hold.
  bool stopping = false;
  /// --stages: the thread's users numbered from here on stop after their request in flight.
  std::uint64_t user_limit = UINT64_MAX;
  std::chrono::steady_clock::time_point run_start;  ///< set before the threads start
  /// -z: from then on no request starts (and no hold lasts); set with run_start.
  std::chrono::steady_clock::time_point window_end = std::chrono::steady_clock::time_point::max();
  /// -g: each request is also kept as a line, shipped with the tick.
  bool keep_requests = false;
  std::vector<statistics::RequestLine> requests;  ///< -g: since the last tick

  /// Now, since the run's start.
  [[nodiscard]] std::chrono::nanoseconds since_start() const {
    return std::chrono::steady_clock::now() - run_start;
  }

  /// Counts one exchange of flow step `step` (a run of one request has no per-step metrics).
  void record(std::size_t step, const model::Result& result) {
    metrics.add(result);
    if (!steps.empty()) steps[step].add(result);
    if (keep_requests) {
      // It ended about now (the verdict takes microseconds), so it started `latency` ago.
      requests.push_back({since_start() - result.latency, result.connect, result.waiting,
                          result.latency, result.status, result.error});
    }
  }

  /// Counts a connection a user opened apart from its requests (WebSocket).
  void record_connection(const model::ExchangeRecord& opened) {
    metrics.add_connection(opened, since_start());
  }

  /// Hands over the metrics since the last tick and starts a new interval.
  Tick take() {
    Tick tick;
    tick.delta = std::move(metrics);
    tick.steps = std::move(steps);
    tick.users_running = users_running;
    tick.in_flight = in_flight;
    tick.requests = std::move(requests);
    requests.clear();
    metrics = statistics::Metrics{};
    steps = std::vector<statistics::Metrics>(tick.steps.size());
    return tick;
  }

  /// Takes back a Tick the collector could not accept, so no count is lost.
  void give_back(Tick tick) {
    metrics.merge(tick.delta);
    for (std::size_t i = 0; i < tick.steps.size(); ++i) steps[i].merge(tick.steps[i]);
    requests.insert(requests.end(), tick.requests.begin(), tick.requests.end());
  }
};

}  // namespace stampede::server
