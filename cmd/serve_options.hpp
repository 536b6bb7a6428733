// `stampede serve`'s command line: its flags and their ranges, and the line it prints on start.
#pragma once

#include <span>
#include <string>

#include "target/server.hpp"

namespace stampede::cmd {

/// The most threads `serve --threads` takes: more than the cores of any machine it serves
/// from. A mistyped count (-1 read as 4,294,967,295) would otherwise exhaust the machine.
inline constexpr int max_serve_threads = 1024;
/// The most processes `serve --workers` takes: 64 open-file budgets (1.2 million connections
/// at this machine's 20,000) is more than one machine's memory and ports hold.
inline constexpr int max_serve_workers = 64;

/// What `stampede serve` was asked for.
struct ServeCommand {
  target::ServeOptions server;  ///< what each worker serves
  unsigned workers = 1;         ///< processes sharing the port (target::serve_in_workers)
};

/// Parses `stampede serve`'s arguments (the words after "serve"): --port 0..65535 (0 picks a
/// free port), --bind ADDR, --threads 1..max_serve_threads threads per worker (default: the
/// cores shared among the workers, at least one each), --workers 1..max_serve_workers (default
/// 1). Throws UsageError naming the mistake, with the usage, for anything else.
ServeCommand parse_serve_options(std::span<const char* const> args);

/// The first line `serve` prints: "stampede serve: listening on http://[::1]:8080/ (1 thread;
/// Ctrl-C stops)", or with workers "(2 workers sharing the port, 1 thread each; Ctrl-C
/// stops)"; `port` is the one bound.
std::string serve_banner(const ServeCommand& command, unsigned short port);

}  // namespace stampede::cmd
