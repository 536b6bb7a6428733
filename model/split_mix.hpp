// SplitMix64: the small random generator a user draws its think times and template values from.
#pragma once

#include <cstdint>

namespace stampede::model {

/// splitmix64 (Steele, Lea and Flood, 2014), mapped to a range by multiply-shift. Our own
/// rather than <random>'s: std::mt19937_64 is 2.5 KB a user, where a user should cost a few
/// hundred bytes, and uniform_int_distribution's mapping is the library's own, so the same seed
/// would draw other values elsewhere and tests could not say which.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  /// The next 64 random bits.
  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15U;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9U;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebU;
    return z ^ (z >> 31U);
  }

  /// A value from 0 to `span` - 1 (`span` 0: the whole 64 bits).
  std::uint64_t below(std::uint64_t span) {
    const auto bits = next();
    if (span == 0) return bits;
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(bits) * span) >> 64U);
  }

 private:
  std::uint64_t state_;
};

}  // namespace stampede::model
