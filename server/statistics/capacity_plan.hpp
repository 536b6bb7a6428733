// CapacityPlan: the seeds' rule of thumb, from daily page views to a peak QPS and a number of
// servers (--pv).
#pragma once

#include <cstdint>

namespace stampede::statistics {

/// What the plan starts from.
struct PlanInputs {
  double page_views = 0;         ///< a day's (--pv)
  double peak_share = 0.8;       ///< of the views that come in the peak (--peak-share)
  double peak_time_share = 0.2;  ///< of the day the peak lasts (--peak-time-share)
  double measured_qps = 0;       ///< what one server took: the run's QPS, or the sweep's knee
};

/// The peak QPS the service must take, and the servers like the one measured it needs.
struct CapacityPlan {
  PlanInputs inputs;
  double peak_qps = 0;  ///< page_views x peak_share / (86,400 s x peak_time_share)
  /// ceil(peak_qps / measured_qps); 0 when nothing was measured (no request succeeded).
  std::uint64_t servers_needed = 0;
};

/// The plan for `inputs`: 80% of 30,000,000 views in 20% of a day is a peak of 1,388.9 a second;
/// at 500 a second measured, 3 servers.
CapacityPlan plan_capacity(const PlanInputs& inputs);

}  // namespace stampede::statistics
