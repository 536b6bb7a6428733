// run_load(): parse, build the run (or the sweep), let the engine work, print the report.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cmd/commands.hpp"
#include "cmd/help.hpp"
#include "cmd/run_config.hpp"
#include "cmd/run_engine.hpp"
#include "cmd/run_outputs.hpp"
#include "cmd/run_sweep.hpp"
#include "cmd/threshold_flag.hpp"
#include "model/version.hpp"
#include "report/formats.hpp"

namespace stampede::cmd {

namespace {

/// --threshold's bounds, each step it names checked against the flow's `steps`.
std::vector<statistics::Threshold> thresholds_for(const Options& options, std::size_t steps) {
  std::vector<statistics::Threshold> thresholds;
  for (const auto& text : options.thresholds) {
    auto threshold = parse_threshold(text);
    if (threshold.step && *threshold.step >= steps) {
      throw UsageError("--threshold '" + text + "': the run has " + std::to_string(steps) +
                       (steps == 1 ? " step" : " steps"));
    }
    thresholds.push_back(std::move(threshold));
  }
  return thresholds;
}

/// --start-at: how long the run waits, or that the time has passed (it then starts at once, and
/// its shard's skew shows how late).
void tell_start(std::chrono::system_clock::time_point at, std::FILE* rows) {
  const std::chrono::duration<double> wait = at - std::chrono::system_clock::now();
  if (wait.count() < 0) {
    spdlog::warn("--start-at passed {:.3f} s ago: starting now", -wait.count());
    return;
  }
  std::fprintf(rows, "-- waiting %.3f s for --start-at --\n", wait.count());
  std::fflush(rows);
}

}  // namespace

int run_load(std::span<const char* const> args) {
  // --told-at is compared with this: the shard's clock when it was told, as near as it can know.
  const auto received = std::chrono::system_clock::now();
  const auto options = parse_options(args);
  if (options.help) {
    std::fputs(command_help(load_command_doc()).c_str(), stdout);
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
  for (const auto& note : config.notes) std::fprintf(stderr, "stampede: %s\n", note.c_str());
  if (options.print_request) {
    print_requests(config);
    return 0;
  }
  const report::Format& format = *report::find_format(options.output);  // parse_options checked it
  // A format a program reads (JSON) has stdout to itself; its live rows go to stderr.
  FILE* rows = format.rows_on_stdout ? stdout : stderr;
  RunOutputs outputs(options, args, config.inputs);
  if (!options.sweep.empty() || !options.sweep_rate.empty()) {
    const auto sweep = run_sweep(options, rows, outputs.sweep_hooks());
    std::fputs(format.render_sweep(sweep).c_str(), stdout);
    outputs.finish(sweep);
    return 0;
  }
  const auto thresholds = thresholds_for(options, config.steps.size());
  config.plan.latency_per_second = outputs.keeps_seconds();
  const auto shard = config.shard;
  const auto start_at = config.plan.start_at;
  if (start_at) tell_start(*start_at, rows);
  auto summary = run_engine(std::move(config), options, rows,
                            outputs.hooks(thresholds, options.abort_on_fail));
  if (options.page_views > 0) {
    summary.capacity =
        statistics::plan_capacity({options.page_views, options.peak_share, options.peak_time_share,
                                   summary.successes_per_second()});
  }
  if (shard) {
    statistics::ShardRecord record{shard->index, summary.info.started_at, start_at,
                                   summary.stop_reason, std::nullopt};
    if (shard->told_at) record.clock_offset = received - *shard->told_at;
    summary.sharding = statistics::Sharding{shard->run, shard->count, {record}, shard->plan};
  }
  for (const auto& threshold : thresholds) {
    summary.thresholds.push_back(statistics::judge(threshold, summary));
  }
  std::fputs(format.render(summary).c_str(), stdout);
  outputs.finish(summary);
  const bool failed = std::any_of(summary.thresholds.begin(), summary.thresholds.end(),
                                  [](const auto& verdict) { return !verdict.passed; });
  return failed ? exit_threshold_failed : 0;
}

}  // namespace stampede::cmd
