// Slo: what a step must keep to count as served (--slo 'p99<100ms,errors<1%').
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/sweep/step.hpp"

namespace stampede::server::sweep {

/// A bound on one latency figure of a step: a percentile (50, 90, 99) or the mean (0 here).
struct LatencyBound {
  double percentile = 99;  ///< 50, 90 or 99; 0: the mean
  double below_ms = 0;
};

/// The service level a step must meet; empty: any step meets it.
struct Slo {
  std::vector<LatencyBound> latency;
  std::optional<double> errors_below;  ///< a share, 0 to 1

  /// What `step` breaks, as "p99 120.3 ms >= 100 ms"; nullopt when it meets every bound.
  [[nodiscard]] std::optional<std::string> broken_by(const StepFigures& step) const;
  /// The bounds as typed back: "p99<100ms,errors<1%"; "" when there are none.
  [[nodiscard]] std::string text() const;
};

}  // namespace stampede::server::sweep
