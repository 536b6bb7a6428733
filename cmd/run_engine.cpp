// run_engine(): the machine's limits, the engine, and the live rows of one run.
#include "cmd/run_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "cmd/capacity.hpp"
#include "report/live_row.hpp"
#include "server/engine.hpp"

namespace stampede::cmd {

namespace {

/// The least time after the last row that the final row is printed for: less would repeat the
/// last row's figures.
constexpr std::chrono::milliseconds final_row_after{100};

/// How many servers (scheme, host, port) the steps talk to: a user's connections.
std::uint64_t servers_of(const std::vector<model::Request>& steps) {
  std::set<std::tuple<model::Scheme, std::string, unsigned short>> servers;
  for (const auto& step : steps)
    servers.emplace(step.origin.scheme, step.origin.host, step.origin.port);
  return servers.size();
}

Demand demand_of(const RunConfig& config) {
  return {config.plan.users, servers_of(config.steps), config.plan.source_addresses.size(),
          config.plan.connections};
}

}  // namespace

std::uint64_t most_users_for(const RunConfig& config) {
  return most_users(demand_of(config), this_machine());
}

statistics::Summary run_engine(RunConfig config, const Options& options, std::FILE* rows,
                               const RunHooks& hooks) {
  auto demand = demand_of(config);
  const auto machine = this_machine();
  if (config.plan.rate > 0 && !options.has_users) {
    // --rate without -c: enough users for the rate at 10 s a request (Little's law), as many as
    // fit. They start only as the schedule needs them, so a fast server sees few.
    const auto wanted = static_cast<std::uint64_t>(std::ceil(config.plan.rate * 10));
    demand.users = std::clamp<std::uint64_t>(wanted, 1, most_users(demand, machine));
    config.plan.users = demand.users;
  }
  check_fits(demand, machine);
  const bool connections = config.long_lived;
  const bool rate = config.plan.rate > 0;
  server::Engine engine(std::move(config.steps), config.plan, std::move(config.verifier));
  std::fputs(report::live_header(connections, rate).c_str(), rows);
  std::fflush(rows);
  const auto abort_on = hooks.abort_on;
  const auto& on_second = hooks.on_second;
  std::optional<std::chrono::nanoseconds> last_row;
  if (hooks.on_engine) hooks.on_engine(&engine);
  auto summary = engine.run(
      [rows, connections, abort_on, &on_second, &engine,
       &last_row](const statistics::Summary& now) {
        last_row = now.elapsed;
        std::fputs(report::live_row(now, connections).c_str(), rows);
        std::fflush(rows);
        if (on_second) on_second(now);
        const auto lost = std::find_if(abort_on.begin(), abort_on.end(), [&now](const auto& t) {
          return statistics::cannot_pass(t, now);
        });
        if (lost != abort_on.end()) {
          std::fprintf(rows, "-- %s can no longer pass: stopping (--abort-on-fail) --\n",
                       lost->text.c_str());
          engine.abort();
        }
      },
      hooks.on_requests);
  if (hooks.on_engine) hooks.on_engine(nullptr);
  // The part of a second after the last row (all of a run shorter than a second) gets a row of
  // its own, as go-stress-testing ends its table: no run ends with a header and no rows.
  if (!last_row || summary.elapsed - *last_row >= final_row_after) {
    std::fputs(report::live_row(summary, connections).c_str(), rows);
    std::fflush(rows);
  }
  return summary;
}

}  // namespace stampede::cmd
