// RateSchedule: the intended start of each request, from its number and the run's start.
#include "server/pacing/rate_schedule.hpp"

#include <cmath>

namespace stampede::server::pacing {

RateSchedule::RateSchedule(double rate, unsigned threads, unsigned index, std::uint64_t total,
                           Nanos window)
    : rate_(rate), threads_(threads), index_(index), total_(total), window_(window) {}

std::optional<RateSchedule::Nanos> RateSchedule::due(std::uint64_t k) const {
  const std::uint64_t request = k * threads_ + index_;  // the run's request number
  if (total_ > 0 && request >= total_) return std::nullopt;
  // Multiplied before divided, in long double (64 bits of mantissa): request j of rate R is at
  // exactly j / R seconds whenever that is a whole nanosecond, so R x D requests fit in -z D.
  const auto at = Nanos(static_cast<std::int64_t>(
      std::floor(static_cast<long double>(request) * 1e9L / static_cast<long double>(rate_))));
  if (window_.count() > 0 && at >= window_) return std::nullopt;
  return at;
}

}  // namespace stampede::server::pacing
