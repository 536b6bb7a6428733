// RateSchedule: the intended start of each request, from its number and the run's start.
#include "server/pacing/rate_schedule.hpp"

#include <utility>

namespace stampede::server::pacing {

RateSchedule::RateSchedule(RateProfile profile, unsigned threads, unsigned index,
                           std::uint64_t total, Nanos window)
    : profile_(std::move(profile)),
      threads_(threads),
      index_(index),
      total_(total),
      window_(window) {}

std::optional<RateSchedule::Nanos> RateSchedule::due(std::uint64_t k) const {
  const std::uint64_t request = k * threads_ + index_;  // the run's request number
  if (total_ > 0 && request >= total_) return std::nullopt;
  const auto at = profile_.due(request);
  if (!at || (window_.count() > 0 && *at >= window_)) return std::nullopt;
  return at;
}

}  // namespace stampede::server::pacing
