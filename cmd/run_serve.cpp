// run_serve(): `stampede serve`, the built-in target, until SIGINT or SIGTERM.
#include <pthread.h>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <thread>

#include "cmd/commands.hpp"
#include "cmd/options.hpp"
#include "target/server.hpp"

namespace stampede::cmd {

namespace po = boost::program_options;

namespace {

target::ServeOptions parse_serve_options(std::span<const char* const> args) {
  target::ServeOptions options;
  options.threads = std::max(1U, std::thread::hardware_concurrency());
  po::options_description description;
  description.add_options()("port", po::value(&options.port))("bind", po::value(&options.bind))(
      "threads", po::value(&options.threads));
  const auto style =
      (po::command_line_style::default_style | po::command_line_style::allow_long_disguise) &
      ~po::command_line_style::allow_guessing;
  try {
    po::variables_map values;
    po::store(po::command_line_parser(std::vector<std::string>(args.begin(), args.end()))
                  .options(description)
                  .style(style)
                  .run(),
              values);
    po::notify(values);
  } catch (const po::error& error) {
    throw UsageError(std::string(error.what()) +
                     " (usage: stampede serve [--port 8080] [--bind 127.0.0.1] [--threads N])");
  }
  if (options.threads < 1) throw UsageError("--threads must be at least 1");
  return options;
}

}  // namespace

int run_serve(std::span<const char* const> args) {
  const auto options = parse_serve_options(args);
  // Block the stop signals in every thread; this one waits for them with sigwait.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  target::Server server(options);
  std::printf("stampede serve: listening on http://%s:%u/ (%u threads; Ctrl-C stops)\n",
              options.bind.c_str(), server.port(), options.threads);
  std::printf("routes: /  /json  /status/{code}  /delay/{ms}  /bytes/{n}\n");
  std::fflush(stdout);
  std::thread serving([&server] { server.run(); });
  int received = 0;
  sigwait(&stop_signals, &received);
  server.stop();
  serving.join();
  return 0;
}

}  // namespace stampede::cmd
