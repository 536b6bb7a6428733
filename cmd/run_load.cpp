// run_load(): parse, build the run, let the engine work, print the rows and the report.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>

#include "cmd/capacity.hpp"
#include "cmd/commands.hpp"
#include "cmd/run_config.hpp"
#include "model/version.hpp"
#include "report/json_report.hpp"
#include "report/live_row.hpp"
#include "report/text_report.hpp"
#include "server/client/prepared_request.hpp"
#include "server/engine.hpp"

namespace stampede::cmd {

namespace {

/// How many servers (scheme, host, port) the steps talk to: a user's connections.
std::uint64_t servers_of(const std::vector<model::Request>& steps) {
  std::set<std::tuple<model::Scheme, std::string, unsigned short>> servers;
  for (const auto& step : steps) servers.emplace(step.scheme, step.host, step.port);
  return servers.size();
}

/// An HTTP/2 request as text: its header list as nghttp -v shows it (on the wire it is HPACK),
/// a blank line, the body.
std::string http2_text(const client::PreparedRequest& prepared) {
  std::string text;
  for (const auto& [name, value] : prepared.h2_headers) text += name + ": " + value + "\n";
  return text + "\n" + prepared.body;
}

/// --print-request: the exact bytes of each step (the header list of an HTTP/2 one); with
/// several steps, a line names each one.
void print_requests(const RunConfig& config) {
  const auto count = config.steps.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (count > 1) std::printf("--- step %zu of %zu\n", i + 1, count);
    const auto& step = config.steps[i];
    const auto prepared = client::prepare(step);
    if (model::sends_http2(step)) {
      std::fprintf(stderr, "stampede: note: step %zu goes as HTTP/2: its header list follows%s\n",
                   i + 1,
                   step.scheme == model::Scheme::https
                       ? " (the HTTP/1.1 form goes if the server picks http/1.1 by ALPN)"
                       : "");
    }
    const auto text = model::sends_http2(step) ? http2_text(prepared) : prepared.bytes;
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (count > 1) std::fputc('\n', stdout);
  }
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
  check_fits(config.plan.users, servers_of(config.steps), this_machine());
  const bool json = options.output == "json";
  // With --output json, stdout carries only the document; the live rows go to stderr.
  FILE* rows = json ? stderr : stdout;
  server::Engine engine(std::move(config.steps), config.plan, std::move(config.verifier));
  std::fputs(report::live_header().c_str(), rows);
  std::fflush(rows);
  const auto summary = engine.run([rows](const statistics::Summary& now) {
    std::fputs(report::live_row(now).c_str(), rows);
    std::fflush(rows);
  });
  const auto report = json ? report::json_report(summary) : report::text_report(summary);
  std::fputs(report.c_str(), stdout);
  return 0;
}

}  // namespace stampede::cmd
