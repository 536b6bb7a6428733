// figures_of(): a step's Summary read down to the sweep table's columns.
#include "server/sweep/step.hpp"

#include <chrono>

namespace stampede::server::sweep {

StepFigures figures_of(double level, const statistics::Summary& summary) {
  const auto& total = summary.total;
  const double seconds = std::chrono::duration<double>(summary.elapsed).count();
  const auto completed = total.completed() + summary.abandoned;
  StepFigures step;
  step.level = level;
  step.requests = total.completed();
  step.qps = summary.successes_per_second();
  step.mean_ms = statistics::to_ms(total.latency.mean());
  step.p50_ms = statistics::to_ms(static_cast<double>(total.latency.percentile(50)));
  step.p90_ms = statistics::to_ms(static_cast<double>(total.latency.percentile(90)));
  step.p99_ms = statistics::to_ms(static_cast<double>(total.latency.percentile(99)));
  step.error_share = completed > 0 ? static_cast<double>(total.failed + summary.abandoned) /
                                         static_cast<double>(completed)
                                   : 0;
  step.time_per_request_ms =
      step.requests > 0 ? seconds * 1000 / static_cast<double>(step.requests) : 0;
  return step;
}

}  // namespace stampede::server::sweep
