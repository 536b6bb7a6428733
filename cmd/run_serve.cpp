// run_serve(): `stampede serve`, the built-in target, until SIGINT or SIGTERM.
#include <pthread.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <csignal>
#include <cstdio>
#include <string>

#include "cmd/commands.hpp"
#include "cmd/help.hpp"
#include "cmd/serve_options.hpp"
#include "target_server/server.hpp"
#include "target_server/workers.hpp"

namespace stampede::cmd {
namespace {

/// The banner, then the routes; a script reads the ports from the first line.
void announce(const ServeCommand& command, const target_server::ListeningPorts& ports) {
  std::printf("%s\n%s\n", serve_banner(command, ports).c_str(), serve_routes(command).c_str());
  std::fflush(stdout);
}

}  // namespace

int run_serve(std::span<const char* const> args) {
  const auto command = parse_serve_options(args);
  if (command.help) {
    std::fputs(command_help(serve_command_doc()).c_str(), stdout);
    return 0;
  }
  // stdout is the banner's; what goes wrong (a failed accept, a worker that died) goes to stderr.
  spdlog::set_default_logger(spdlog::stderr_logger_mt("stampede"));
  spdlog::set_level(spdlog::level::warn);
  // Block the stop signals (and SIGCHLD, for the workers' parent) in every thread, before any
  // starts: sigwait takes them.
  const auto signals = target_server::serve_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  target_server::raise_open_file_limit();
  if (command.workers > 1) {
    return target_server::serve_in_workers(
        command.server, command.workers,
        [&command](const target_server::ListeningPorts& ports) { announce(command, ports); });
  }
  target_server::Server server(command.server);
  announce(command, {.port = server.port(), .tls_port = server.tls_port()});
  target_server::serve_until_stopped(server);
  return 0;
}

}  // namespace stampede::cmd
