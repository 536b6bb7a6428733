// run_load(): parse, build the run, let the engine work, print the rows and the report.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>

#include "cmd/capacity.hpp"
#include "cmd/commands.hpp"
#include "cmd/run_config.hpp"
#include "model/version.hpp"
#include "report/formats.hpp"
#include "report/live_row.hpp"
#include "server/engine.hpp"

namespace stampede::cmd {

namespace {

/// How many servers (scheme, host, port) the steps talk to: a user's connections.
std::uint64_t servers_of(const std::vector<model::Request>& steps) {
  std::set<std::tuple<model::Scheme, std::string, unsigned short>> servers;
  for (const auto& step : steps)
    servers.emplace(step.origin.scheme, step.origin.host, step.origin.port);
  return servers.size();
}

}  // namespace

int run_load(std::span<const char* const> args) {
  const auto options = parse_options(args);
  if (options.help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  if (options.version) {
    std::printf("stampede %s\n", model::version);
    return 0;
  }
  // Logs go to stderr: stdout carries only the rows and the report (or the JSON document).
  spdlog::set_default_logger(spdlog::stderr_logger_mt("stampede"));
  spdlog::set_level(options.debug ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_pattern("stampede: %l: %v");
  auto config = make_run_config(options);
  for (const auto& warning : config.warnings) spdlog::warn("{}", warning);
  if (options.print_request) {
    print_requests(config);
    return 0;
  }
  Demand demand{config.plan.users, servers_of(config.steps), config.plan.source_addresses.size(),
                config.plan.connections};
  const auto machine = this_machine();
  if (config.plan.rate > 0 && !options.has_users) {
    // --rate without -c: enough users for the rate at 10 s a request (Little's law), as many as
    // fit. They start only as the schedule needs them, so a fast server sees few.
    const auto wanted = static_cast<std::uint64_t>(std::ceil(config.plan.rate * 10));
    demand.users = std::clamp<std::uint64_t>(wanted, 1, most_users(demand, machine));
    config.plan.users = demand.users;
  }
  check_fits(demand, machine);
  const report::Format& format = *report::find_format(options.output);  // parse_options checked it
  // A format a program reads (JSON) has stdout to itself; its live rows go to stderr.
  FILE* rows = format.rows_on_stdout ? stdout : stderr;
  const bool connections = config.long_lived;
  server::Engine engine(std::move(config.steps), config.plan, std::move(config.verifier));
  std::fputs(report::live_header(connections, config.plan.rate > 0).c_str(), rows);
  std::fflush(rows);
  const auto summary = engine.run([rows, connections](const statistics::Summary& now) {
    std::fputs(report::live_row(now, connections).c_str(), rows);
    std::fflush(rows);
  });
  const auto report = format.render(summary);
  std::fputs(report.c_str(), stdout);
  return 0;
}

}  // namespace stampede::cmd
