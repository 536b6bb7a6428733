// The capacity plan (--pv) as the text and JSON reports print it, for a run and for a sweep.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "server/statistics/capacity_plan.hpp"

namespace stampede::report {

/// ab-style lines: the day's page views and the rule's shares, the peak rate they make, what
/// one server took, and the servers needed (or why that is unknown).
std::string capacity_text(const statistics::CapacityPlan& plan, const std::string& measured_by);

/// The plan's inputs and figures as one JSON object (docs/json-report.md, `capacity`).
nlohmann::json capacity_json(const statistics::CapacityPlan& plan);

}  // namespace stampede::report
