// plan_capacity(): the arithmetic of the rule of thumb, rounded up to whole servers.
#include "server/statistics/capacity_plan.hpp"

#include <cmath>

namespace stampede::statistics {

namespace {
constexpr double seconds_a_day = 86'400;
}

CapacityPlan plan_capacity(const PlanInputs& inputs) {
  CapacityPlan plan;
  plan.inputs = inputs;
  plan.peak_qps = inputs.page_views * inputs.peak_share / (seconds_a_day * inputs.peak_time_share);
  if (inputs.measured_qps > 0) {
    // A hair under a whole number of servers is that number (1388.9 / 1388.9000001 is 1).
    plan.servers_needed =
        static_cast<std::uint64_t>(std::ceil(plan.peak_qps / inputs.measured_qps - 1e-9));
  }
  return plan;
}

}  // namespace stampede::statistics
