// run_load(): parse, build the run (or the sweep), let the engine work, print the report.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <cstdio>
#include <utility>

#include "cmd/commands.hpp"
#include "cmd/run_config.hpp"
#include "cmd/run_engine.hpp"
#include "cmd/run_sweep.hpp"
#include "model/version.hpp"
#include "report/formats.hpp"

namespace stampede::cmd {

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
  const report::Format& format = *report::find_format(options.output);  // parse_options checked it
  // A format a program reads (JSON) has stdout to itself; its live rows go to stderr.
  FILE* rows = format.rows_on_stdout ? stdout : stderr;
  if (!options.sweep.empty() || !options.sweep_rate.empty()) {
    std::fputs(format.render_sweep(run_sweep(options, rows)).c_str(), stdout);
    return 0;
  }
  auto summary = run_engine(std::move(config), options, rows);
  if (options.page_views > 0) {
    summary.capacity =
        statistics::plan_capacity({options.page_views, options.peak_share, options.peak_time_share,
                                   summary.successes_per_second()});
  }
  const auto report = format.render(summary);
  std::fputs(report.c_str(), stdout);
  return 0;
}

}  // namespace stampede::cmd
