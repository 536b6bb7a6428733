// One thread's share of the run: its users' metrics, touched only by that thread.
#pragma once

#include <cstdint>

#include "server/statistics/collector.hpp"

namespace stampede::server {

/// Per-thread state. Only the owning thread reads or writes it while the run is on, so
/// recording a request costs no lock and no atomic.
struct Shard {
  statistics::Metrics metrics;  ///< since the last tick
  std::uint64_t users_running = 0;
  std::uint64_t in_flight = 0;  ///< requests sent and not yet recorded

  /// Hands over the metrics since the last tick and starts a new interval.
  statistics::Tick take() {
    statistics::Tick tick{std::move(metrics), users_running, in_flight};
    metrics = statistics::Metrics{};
    return tick;
  }

  /// Takes back a Tick the collector could not accept, so no count is lost.
  void give_back(statistics::Tick tick) { metrics.merge(tick.delta); }
};

}  // namespace stampede::server
