// run_load(): parse, build the run, let the engine work, print the rows and the report.
#include <sys/resource.h>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>

#include "cmd/commands.hpp"
#include "cmd/run_config.hpp"
#include "model/version.hpp"
#include "report/formats.hpp"
#include "report/live_row.hpp"
#include "server/client/prepared_request.hpp"
#include "server/engine.hpp"

namespace stampede::cmd {

namespace {

/// Each user holds a socket per server its steps talk to: lift the soft open-file limit to the
/// hard one, and say so when even that is too low (connects beyond it fail as `connect`
/// errors, counted, not fatal).
void raise_open_file_limit(std::uint64_t users, std::uint64_t servers) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
  constexpr rlim_t reserve = 64;  // stdio, the event loops, the resolver
  const auto sockets = users * servers;
  if (limit.rlim_cur != RLIM_INFINITY && sockets + reserve > limit.rlim_cur) {
    spdlog::warn(
        "-c {} needs about {} open files but the limit is {}; connects beyond it will fail", users,
        sockets + reserve, limit.rlim_cur);
  }
}

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
  raise_open_file_limit(config.plan.users, servers_of(config.steps));
  const report::Format& format = *report::find_format(options.output);  // parse_options checked it
  // A format a program reads (JSON) has stdout to itself; its live rows go to stderr.
  FILE* rows = format.rows_on_stdout ? stdout : stderr;
  server::Engine engine(std::move(config.steps), config.plan, std::move(config.verifier));
  std::fputs(report::live_header().c_str(), rows);
  std::fflush(rows);
  const auto summary = engine.run([rows](const statistics::Summary& now) {
    std::fputs(report::live_row(now).c_str(), rows);
    std::fflush(rows);
  });
  const auto report = format.render(summary);
  std::fputs(report.c_str(), stdout);
  return 0;
}

}  // namespace stampede::cmd
