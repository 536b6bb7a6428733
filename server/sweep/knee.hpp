// find_knee(): the highest level a sweep's server still served, and why the next one failed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "server/sweep/slo.hpp"
#include "server/sweep/step.hpp"

namespace stampede::server::sweep {

/// A step still scales when its QPS grew, over the step before, at least this share of its
/// level's growth in proportion: +25% users for at least +20% QPS. A share of the level's
/// growth rather than a fixed percentage, so that small steps (a bisection's) and large ones
/// (a doubling's) are judged alike; high enough that a doubling past the limit, half of whose
/// growth was real, does not pass for scaling.
inline constexpr double min_scaling = 0.8;

/// Whether `next`, a step at a higher level than `last`, still scales over it.
bool scales(const StepFigures& last, const StepFigures& next);

/// What breaks `next` after `last` (nullptr for the first step): the SLO's words, or "QPS +1.2%
/// for +50% level" when it stopped scaling; nullopt when nothing does.
std::optional<std::string> what_breaks(const StepFigures* last, const StepFigures& next,
                                       const Slo& slo);

/// The knee of a sweep's steps, in rising level order.
struct Knee {
  /// The last step before the first that broke; nullopt when the first one broke already.
  std::optional<std::size_t> step;
  /// The first step that broke; nullopt when none did (the sweep never found the limit).
  std::optional<std::size_t> broke;
  std::string why;  ///< what broke it
};

/// The steps walked up from the lowest: the knee is the last one before the first that breaks
/// the SLO or stops scaling.
Knee find_knee(const std::vector<StepFigures>& steps, const Slo& slo);

}  // namespace stampede::server::sweep
