// What an open model (--rate) adds to a stretch of a run: the uncorrected latency, the
// generator's lag and the requests the cap held back; mergeable.
#pragma once

#include <cstdint>

#include "server/statistics/histogram.hpp"

namespace stampede::statistics {

/// --rate's own figures; all zero and empty in a closed-model run.
struct RateCounts {
  /// Requests (a flow's rounds) that came due: each ends scheduled, abandoned at a stop, or
  /// missed.
  std::uint64_t due = 0;
  std::uint64_t scheduled = 0;  ///< requests that started on the schedule and ended
  /// Service time: the exchange alone, for the requests whose latency is recorded (latency is
  /// then counted from when each was due).
  Histogram service_time;
  /// From when a user was free for a request to its start: the generator falling behind.
  Histogram lag;
  /// Requests that came due with every user (-c) busy: they started late, when one was free.
  std::uint64_t capped = 0;
  /// Of those, the ones that came due while some of the users were still on their first
  /// request (connecting): the cap was reached by users starting, not by users busy serving.
  std::uint64_t capped_starting = 0;
  /// Requests due before -z's end that no user was free to start by then: never sent.
  std::uint64_t missed = 0;

  void merge(const RateCounts& other) {
    due += other.due;
    scheduled += other.scheduled;
    service_time.merge(other.service_time);
    lag.merge(other.lag);
    capped += other.capped;
    capped_starting += other.capped_starting;
    missed += other.missed;
  }

  friend bool operator==(const RateCounts&, const RateCounts&) = default;
};

}  // namespace stampede::statistics
