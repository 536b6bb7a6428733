// Stages: how many users a run has at each moment under --stages, as exact integer arithmetic.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace stampede::server::pacing {

/// One stage: the level moves in a straight line to `target` over `duration`.
struct Stage {
  std::chrono::nanoseconds duration;
  std::uint64_t target = 0;
};

/// The level (users) a run follows: from 0, each stage moves it linearly to its target (k6's
/// stages). At t into a stage from a to b over D, the level is a + floor(t x (b - a) / D) rising
/// and a - floor(t x (a - b) / D) falling: each whole step is taken at the first nanosecond it
/// is due, and the times of the steps come from the same integers as the levels, so a driver
/// that wakes at next_change() always finds the level changed.
class Stages {
 public:
  using Nanos = std::chrono::nanoseconds;

  /// At least one stage; each duration above 0.
  explicit Stages(std::vector<Stage> stages);

  /// The level t after the start (before 0: 0; past the end: the last target).
  [[nodiscard]] std::uint64_t level_at(Nanos t) const;
  /// The first moment after t when the level changes; nullopt when it never does again.
  [[nodiscard]] std::optional<Nanos> next_change(Nanos t) const;
  /// All the stages' durations.
  [[nodiscard]] Nanos length() const;
  /// The highest target: the most users at once.
  [[nodiscard]] std::uint64_t peak() const;

 private:
  std::vector<Stage> stages_;
};

/// Users of `level` that run on thread `index` of `threads`: users are numbered across the
/// threads in turn (user j on thread j mod threads), so the threads' shares add up to `level`.
inline std::uint64_t thread_share(std::uint64_t level, unsigned threads, unsigned index) {
  return level > index ? (level - index + threads - 1) / threads : 0;
}

}  // namespace stampede::server::pacing
