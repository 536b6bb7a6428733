// The variables (`${seq}`, `${uuid}`, captured ones) in a run's steps, checked before anything
// runs, and --capture.
#pragma once

#include <string>
#include <vector>

#include "model/plan.hpp"
#include "model/request.hpp"

namespace stampede::cmd {

/// --capture's `specs` added to the one step of `steps`. Throws UsageError for a bad capture,
/// or for a flow (its captures are written in the curl file, before the step they read).
void apply_captures(const std::vector<std::string>& specs, std::vector<model::Request>& steps);

/// Reads the variables of every step's target, headers and body (`plan.data` gives the
/// columns); throws UsageError naming the step and the variable when one cannot be rendered, when a
/// capture takes a name stampede gives, or when a WebSocket or gRPC step has variables or captures
/// (those are sent as they are written).
void check_step_variables(const std::vector<model::Request>& steps, const model::Plan& plan);

}  // namespace stampede::cmd
