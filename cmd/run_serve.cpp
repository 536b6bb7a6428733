// run_serve(): `stampede serve`, the built-in target, until SIGINT or SIGTERM.
#include <pthread.h>
#include <csignal>
#include <cstdio>
#include <thread>

#include "cmd/commands.hpp"
#include "cmd/serve_options.hpp"
#include "target/server.hpp"

namespace stampede::cmd {

int run_serve(std::span<const char* const> args) {
  const auto options = parse_serve_options(args);
  // Block the stop signals in every thread; this one waits for them with sigwait.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  target::Server server(options);
  std::printf("%s\n", serve_banner(options, server.port()).c_str());
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
