// What became of the long-lived connections (WebSocket) of a stretch of a run, and the streams
// of shared HTTP/2 connections (-m): mergeable counts.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
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
  /// WebSocket: the codes of the server's close frames (its own close, or its answer to ours),
  /// a connection each.
  std::map<int, std::uint64_t> close_codes{};

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
    for (const auto& [code, count] : other.close_codes) close_codes[code] += count;
  }

  friend bool operator==(const ConnectionCounts&, const ConnectionCounts&) = default;
};

/// -m: the requests that went as streams on shared connections, and how many streams were
/// open on their connection as each opened (itself included): mean and max are the streams a
/// connection carried at once. Sums and a max, so they merge in any order.
struct StreamCounts {
  std::uint64_t streams = 0;   ///< requests whose stream opened on a shared connection
  std::uint64_t open_sum = 0;  ///< the streams open as each opened, summed
  std::uint64_t open_max = 0;  ///< the most open at once on one connection

  void add(std::uint64_t open) {
    ++streams;
    open_sum += open;
    open_max = std::max(open_max, open);
  }
  [[nodiscard]] double open_mean() const {
    return streams == 0 ? 0 : static_cast<double>(open_sum) / static_cast<double>(streams);
  }
  void merge(const StreamCounts& other) {
    streams += other.streams;
    open_sum += other.open_sum;
    open_max = std::max(open_max, other.open_max);
  }

  friend bool operator==(const StreamCounts&, const StreamCounts&) = default;
};

}  // namespace stampede::statistics
