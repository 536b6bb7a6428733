// run_load(): parse, build the run, let the engine work, print the rows and the report.
#include <cstdio>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "cmd/commands.hpp"
#include "cmd/run_config.hpp"
#include "model/version.hpp"
#include "server/engine.hpp"
#include "server/statistics/json_report.hpp"
#include "server/statistics/live_row.hpp"
#include "server/statistics/text_report.hpp"

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
  const bool json = options.output == "json";
  // With --output json, stdout carries only the document; the live rows go to stderr.
  FILE* rows = json ? stderr : stdout;
  server::Engine engine(std::move(config.request), config.plan, std::move(config.verifier));
  std::fputs(statistics::live_header().c_str(), rows);
  std::fflush(rows);
  const auto summary = engine.run([rows](const statistics::Summary& now) {
    std::fputs(statistics::live_row(now).c_str(), rows);
    std::fflush(rows);
  });
  const auto report = json ? statistics::json_report(summary) : statistics::text_report(summary);
  std::fputs(report.c_str(), stdout);
  return 0;
}

}  // namespace stampede::cmd
