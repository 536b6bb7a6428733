// RateProfile: the requests asked for up to a moment, and its inverse, stage by stage in long
// double (the quadratic solved in the form that does not cancel when the rate barely moves).
#include "server/pacing/rate_profile.hpp"

#include <cmath>
#include <utility>

namespace stampede::server::pacing {

namespace {

using Real = long double;

Real seconds(std::chrono::nanoseconds span) { return static_cast<Real>(span.count()) / 1e9L; }

std::chrono::nanoseconds nanos(Real seconds) {
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::floor(seconds * 1e9L)));
}

/// Requests a stage from `from` to `to` a second over `length` seconds asks for in its first
/// `t` seconds.
Real asked_in_stage(Real from, Real to, Real length, Real t) {
  return from * t + (to - from) * t * t / (2 * length);
}

/// The t at which that reaches `count` (> 0, within the stage): the root of
/// (to - from) t^2 / 2 length + from t - count, written as 2 count / (from + sqrt(...)).
Real time_in_stage(Real from, Real to, Real length, Real count) {
  return 2 * count / (from + std::sqrt(from * from + 2 * (to - from) * count / length));
}

}  // namespace

RateProfile::RateProfile(double rate) : rate_(rate) {}

RateProfile::RateProfile(std::vector<RateStage> stages) : stages_(std::move(stages)) {}

std::optional<RateProfile::Nanos> RateProfile::due(std::uint64_t request) const {
  const auto wanted = static_cast<Real>(request);
  // Multiplied before divided: request j of rate R is at exactly j / R seconds whenever that
  // is a whole nanosecond, so R x D requests fit in -z D.
  if (rate_ > 0) return Nanos(static_cast<std::int64_t>(std::floor(wanted * 1e9L / rate_)));
  Real from = 0;
  Real asked = 0;  // by the stage's start
  Nanos start{0};
  for (const auto& stage : stages_) {
    const Real to = stage.target;
    const Real length = seconds(stage.duration);
    const Real in_stage = asked_in_stage(from, to, length, length);
    if (wanted < asked + in_stage) {
      const Real left = wanted - asked;
      return start + (left > 0 ? nanos(time_in_stage(from, to, length, left)) : Nanos(0));
    }
    asked += in_stage;
    from = to;
    start += stage.duration;
  }
  if (from <= 0) return std::nullopt;
  return start + nanos((wanted - asked) / from);
}

long double RateProfile::asked_by(Nanos span) const {
  if (rate_ > 0) return static_cast<Real>(rate_) * seconds(span);
  Real from = 0;
  Real asked = 0;
  Nanos start{0};
  for (const auto& stage : stages_) {
    const Real length = seconds(stage.duration);
    if (span < start + stage.duration) {
      return asked + asked_in_stage(from, stage.target, length, seconds(span - start));
    }
    asked += asked_in_stage(from, stage.target, length, length);
    from = stage.target;
    start += stage.duration;
  }
  return asked + from * seconds(span - start);
}

}  // namespace stampede::server::pacing
