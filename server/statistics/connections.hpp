// What became of the long-lived connections (WebSocket) of a stretch of a run: mergeable counts.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <numeric>

#include "model/error_kind.hpp"

namespace stampede::statistics {

/// Connections opened apart from requests, and how they ended. Counts only, so merging in any
/// order gives the same totals (and the same last opening); the number open at a moment is opened -
/// ended of the totals.
struct ConnectionCounts {
  std::uint64_t opened = 0;  ///< upgrades that succeeded
  /// When the last of them opened, since the run's start: how long opening them all took.
  std::chrono::nanoseconds last_opened{0};
  std::uint64_t ended = 0;             ///< opened connections since closed, for any reason
  std::uint64_t closed_by_server = 0;  ///< of those, the server closed (a close frame)
  /// Opens that failed and connections lost (reset, timeout, an unanswered ping), by kind.
  std::array<std::uint64_t, model::error_kind_count> failed{};

  [[nodiscard]] std::uint64_t failures() const {
    return std::accumulate(failed.begin(), failed.end(), std::uint64_t{0});
  }
  /// Counts a connection opened `at` (since the run's start).
  void open(std::chrono::nanoseconds at) {
    ++opened;
    last_opened = std::max(last_opened, at);
  }
  /// Counts a failed open or a lost connection of kind `kind`.
  void fail(model::ErrorKind kind) { ++failed[static_cast<std::size_t>(kind)]; }

  void merge(const ConnectionCounts& other) {
    opened += other.opened;
    last_opened = std::max(last_opened, other.last_opened);
    ended += other.ended;
    closed_by_server += other.closed_by_server;
    for (std::size_t i = 0; i < failed.size(); ++i) failed[i] += other.failed[i];
  }

  friend bool operator==(const ConnectionCounts&, const ConnectionCounts&) = default;
};

}  // namespace stampede::statistics
