// Options -> what the engine needs: the Request, the Plan and the Verifier.
#pragma once

#include <memory>

#include "cmd/options.hpp"
#include "model/plan.hpp"
#include "model/request.hpp"
#include "verify/verifier.hpp"

namespace stampede::cmd {

/// A validated load run, ready for the engine.
struct RunConfig {
  model::Request request;
  model::Plan plan;
  std::shared_ptr<const verify::Verifier> verifier;
};

/// Interprets `options`: parses the URL, reads `-data @file`, splits headers. Throws
/// UsageError naming what is wrong.
RunConfig make_run_config(const Options& options);

}  // namespace stampede::cmd
