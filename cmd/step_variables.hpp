// The checks on the variables (`${seq}`, `${uuid}`, ...) in a run's steps, before anything runs.
#pragma once

#include <vector>

#include "model/request.hpp"

namespace stampede::cmd {

/// Reads the variables of every step's target, headers and body; throws UsageError naming the
/// step and the variable when one cannot be rendered, or when a WebSocket or gRPC step has any
/// (those are sent as they are written).
void check_step_variables(const std::vector<model::Request>& steps);

}  // namespace stampede::cmd
