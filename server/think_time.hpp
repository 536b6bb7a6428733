// ThinkTime: the pauses a user takes between its requests (--think), drawn from its own seed.
#pragma once

#include <chrono>
#include <cstdint>

namespace stampede::server {

/// Pauses drawn uniformly from [min, max], as people pause between pages (Locust's `between`,
/// k6's sleep between iterations). Our own generator (splitmix64, mapped by multiply-shift)
/// rather than <random>'s: std::mt19937_64 is 2.5 KB a user, where a user should cost a few
/// hundred bytes, and uniform_int_distribution's mapping is the library's own, so the same seed
/// would draw other pauses elsewhere and tests could not say which.
class ThinkTime {
 public:
  using Nanos = std::chrono::nanoseconds;

  /// `seed`: the user's number, so that a run's users pause differently and a rerun alike.
  ThinkTime(std::chrono::milliseconds min, std::chrono::milliseconds max, std::uint64_t seed)
      : min_(min), span_(static_cast<std::uint64_t>(Nanos(max - min).count()) + 1), state_(seed) {}

  /// No pause at all (no --think).
  [[nodiscard]] bool none() const { return max() == Nanos(0); }

  /// The next pause, from min to max.
  Nanos next() {
    state_ += 0x9e3779b97f4a7c15U;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9U;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebU;
    z ^= z >> 31U;
    const auto scaled =
        static_cast<std::uint64_t>((static_cast<unsigned __int128>(z) * span_) >> 64U);
    return min_ + Nanos(static_cast<std::int64_t>(scaled));
  }

 private:
  [[nodiscard]] Nanos max() const { return min_ + Nanos(static_cast<std::int64_t>(span_ - 1)); }

  Nanos min_;
  std::uint64_t span_;  ///< how many nanosecond values a pause may take
  std::uint64_t state_;
};

}  // namespace stampede::server
