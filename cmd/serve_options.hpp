// `stampede serve`'s command line: its flags and their ranges, and the line it prints on start.
#pragma once

#include <span>
#include <string>

#include "target/server.hpp"

namespace stampede::cmd {

/// The most threads `serve --threads` takes: more than the cores of any machine it serves
/// from. A mistyped count (-1 read as 4,294,967,295) would otherwise exhaust the machine.
inline constexpr int max_serve_threads = 1024;

/// Parses `stampede serve`'s arguments (the words after "serve"): --port 0..65535 (0 picks a
/// free port), --bind ADDR, --threads 1..max_serve_threads (default: one per core). Throws
/// UsageError naming the mistake, with the usage, for anything else.
target::ServeOptions parse_serve_options(std::span<const char* const> args);

/// The first line `serve` prints: "stampede serve: listening on http://[::1]:8080/ (1 thread;
/// Ctrl-C stops)"; `port` is the one bound.
std::string serve_banner(const target::ServeOptions& options, unsigned short port);

}  // namespace stampede::cmd
