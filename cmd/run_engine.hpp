// run_engine(): one run of the engine sized to this machine, its live rows printed as it goes.
#pragma once

#include <cstdio>
#include <span>

#include "cmd/options.hpp"
#include "cmd/run_config.hpp"
#include "server/collector.hpp"
#include "server/engine.hpp"
#include "server/statistics/summary.hpp"
#include "server/statistics/threshold.hpp"

namespace stampede::cmd {

/// What a run reports besides its live rows.
struct RunHooks {
  /// --abort-on-fail: the run stops (reason `aborted`) at the first second where one of these
  /// can no longer pass.
  std::span<const statistics::Threshold> abort_on{};
  server::RequestSink on_requests{};  ///< -g: each request
  server::TickHandler on_second{};    ///< --prometheus, --dashboard: the Summary once a second
  /// --dashboard: the engine while it runs (its stop button interrupts it), then nullptr.
  std::function<void(server::Engine*)> on_engine{};
};

/// Gives --rate without -c its default cap (enough users for the rate at 10 s a request, as
/// many as fit), checks that the run fits this machine (UsageError if not), runs it and prints
/// the live table to `rows` (a header, then a row a second). Shared by a single run and each
/// step of a sweep.
statistics::Summary run_engine(RunConfig config, const Options& options, std::FILE* rows,
                               const RunHooks& hooks = {});

/// The most users a run shaped as `config` (its users aside) fits on this machine: the top of
/// an automatic sweep of users.
std::uint64_t most_users_for(const RunConfig& config);

}  // namespace stampede::cmd
