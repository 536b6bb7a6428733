// StepFigures: what a sweep keeps of one step's run, the figures its table and knee read.
#pragma once

#include <cstdint>

#include "server/statistics/summary.hpp"

namespace stampede::server::sweep {

/// One step of a sweep: its level (users, or requests a second) and how the server held up.
struct StepFigures {
  double level = 0;
  double qps = 0;  ///< successful requests a second: failures (503s) do not make a server faster
  double mean_ms = 0;
  double p50_ms = 0;
  double p90_ms = 0;
  double p99_ms = 0;
  double error_share = 0;  ///< failed (and abandoned) over all completed, 0 to 1
  /// ab's "Time per request (mean, across all concurrent requests)": the run's length over
  /// its completed requests.
  double time_per_request_ms = 0;
  std::uint64_t requests = 0;  ///< completed
};

/// The figures of `summary`, the run of a step at `level`.
StepFigures figures_of(double level, const statistics::Summary& summary);

}  // namespace stampede::server::sweep
