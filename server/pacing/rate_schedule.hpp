// RateSchedule: when each of one thread's requests is meant to start under --rate.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "server/pacing/rate_profile.hpp"

namespace stampede::server::pacing {

/// A run's --rate, split over its threads: thread i of T starts the run's requests i, i + T,
/// i + 2T, ..., each at its place in one schedule (the profile's), so the threads together keep
/// the whole rate without a shared counter (and without drift: each start is computed from the
/// run's start, never from the one before).
class RateSchedule {
 public:
  using Nanos = std::chrono::nanoseconds;

  /// `profile`: requests a second for the whole run. `total`: requests in all (0: no count
  /// limit). `window`: no request is meant to start at or after it, from the run's start
  /// (0: no window).
  RateSchedule(RateProfile profile, unsigned threads, unsigned index, std::uint64_t total,
               Nanos window);

  /// When the thread's `k`-th request is meant to start, from the run's start; nullopt once
  /// the schedule is over (past the total or the window).
  [[nodiscard]] std::optional<Nanos> due(std::uint64_t k) const;

 private:
  RateProfile profile_;
  std::uint64_t threads_;
  std::uint64_t index_;
  std::uint64_t total_;
  Nanos window_;
};

}  // namespace stampede::server::pacing
