// ThinkTime: the pauses a user takes between its requests (--think), drawn from its own seed.
#pragma once

#include <chrono>
#include <cstdint>

#include "model/split_mix.hpp"

namespace stampede::server {

/// Pauses drawn uniformly from [min, max], as people pause between pages (Locust's `between`,
/// k6's sleep between iterations), drawn by model::SplitMix64.
class ThinkTime {
 public:
  using Nanos = std::chrono::nanoseconds;

  /// `seed`: the user's number, so that a run's users pause differently and a rerun alike.
  ThinkTime(std::chrono::milliseconds min, std::chrono::milliseconds max, std::uint64_t seed)
      : min_(min), span_(static_cast<std::uint64_t>(Nanos(max - min).count()) + 1), random_(seed) {}

  /// No pause at all (no --think).
  [[nodiscard]] bool none() const { return max() == Nanos(0); }

  /// The next pause, from min to max.
  Nanos next() { return min_ + Nanos(static_cast<std::int64_t>(random_.below(span_))); }

 private:
  [[nodiscard]] Nanos max() const { return min_ + Nanos(static_cast<std::int64_t>(span_ - 1)); }

  Nanos min_;
  std::uint64_t span_;  ///< how many nanosecond values a pause may take
  model::SplitMix64 random_;
};

}  // namespace stampede::server
