// SweepResult: a whole sweep, every target's steps and knee, for the reports.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/statistics/capacity_plan.hpp"
#include "server/sweep/knee.hpp"
#include "server/sweep/slo.hpp"
#include "server/sweep/step.hpp"

namespace stampede::server::sweep {

/// One target's steps (rising levels) and its knee.
struct TargetSweep {
  std::string url;
  std::vector<StepFigures> steps;
  Knee knee;
};

/// A sweep as the reports print it.
struct SweepResult {
  bool by_rate = false;    ///< levels are requests a second (--sweep-rate), not users
  bool automatic = false;  ///< `auto`: the levels were searched for
  double step_s = 0;       ///< each step's length (-z)
  double warmup_s = 0;     ///< the warm-up before each step, not counted
  Slo slo;
  std::vector<TargetSweep> targets;  ///< in -u order
  bool interrupted = false;          ///< Ctrl-C ended it early: the steps so far
  /// --pv: the plan for the first target's knee (or its best step).
  std::optional<statistics::CapacityPlan> capacity;
};

}  // namespace stampede::server::sweep
