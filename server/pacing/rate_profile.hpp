// RateProfile: how many requests a second a --rate run asks for at each moment, and so when its
// j-th request is due.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace stampede::server::pacing {

/// One stage of a rate profile: the rate moves in a straight line to `target` a second over
/// `duration`.
struct RateStage {
  std::chrono::nanoseconds duration;
  double target = 0;
};

/// A fixed rate (--rate R), or stages of rate from 0 (--rate with --ramp, --stages D:R/s): k6's
/// ramping arrival rate. Request j is due when the requests the profile asked for so far reach
/// j: under a fixed rate at j / R, in a stage from a to b over D at the t where
/// a t + (b - a) t^2 / 2D reaches what is left of j, after the last stage at its target.
class RateProfile {
 public:
  using Nanos = std::chrono::nanoseconds;

  /// A fixed `rate` a second (> 0).
  explicit RateProfile(double rate);
  /// From 0 along `stages` (at least one), then at the last target for good.
  explicit RateProfile(std::vector<RateStage> stages);

  /// When the run's request `request` (from 0) is due, from the run's start; nullopt when it
  /// never is (the last target is 0 and the stages asked for fewer).
  [[nodiscard]] std::optional<Nanos> due(std::uint64_t request) const;

  /// Requests the profile asks for in its first `span` (a fraction at the end).
  [[nodiscard]] long double asked_by(Nanos span) const;

 private:
  double rate_ = 0;  ///< a fixed rate; 0: the stages
  std::vector<RateStage> stages_;
};

}  // namespace stampede::server::pacing
