// `stampede serve`'s command line: its flags and their ranges, and the lines it prints on start.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "target_server/server.hpp"

namespace stampede::cmd {

/// The most threads `serve --threads` takes: more than the cores of any machine it serves
/// from. A mistyped count (-1 read as 4,294,967,295) would otherwise exhaust the machine.
inline constexpr int max_serve_threads = 1024;
/// The most concurrent streams `serve --max-streams` lets an HTTP/2 connection open: more
/// than any client opens, and each costs the server memory while open.
inline constexpr int max_serve_streams = 1'000'000;
/// The most processes `serve --workers` takes: 64 open-file budgets (1.2 million connections
/// at this machine's 20,000) is more than one machine's memory and ports hold.
inline constexpr int max_serve_workers = 64;
/// The most requests `serve --max-in-flight` lets a process serve at once: more than one holds
/// open (each is a connection, or an HTTP/2 stream, waiting for its answer). A mistyped count
/// (-1 read as 4,294,967,295) is refused rather than taken as no limit at all.
inline constexpr std::int64_t max_serve_in_flight = 100'000'000;

/// What `stampede serve` was asked for.
struct ServeCommand {
  target_server::ServeOptions server;  ///< what each worker serves
  unsigned workers = 1;  ///< processes sharing the port (target_server::serve_in_workers)
  bool help = false;     ///< -h, --help: print serve's help, serve nothing
};

/// Parses `stampede serve`'s arguments (the words after "serve") by its table of flags
/// (serve_options.cpp: each flag's range and default; --threads defaults to the cores shared
/// among the workers, at least one each). --cert and --key are read and checked here. Throws
/// UsageError naming the mistake, and for a certificate or key it cannot use, naming the file.
ServeCommand parse_serve_options(std::span<const char* const> args);

/// The first line `serve` prints: "stampede serve: listening on http://[::1]:8080/ (1 thread;
/// Ctrl-C stops)", with TLS "listening on http://127.0.0.1:8080/ and https://127.0.0.1:8443/
/// (...)", with workers "(2 workers sharing the port, 1 thread each; Ctrl-C stops)", with
/// --max-in-flight "(1 thread, at most 4 requests in flight; ...)" ("... in flight each" with
/// workers); `ports` are the ones bound.
std::string serve_banner(const ServeCommand& command, const target_server::ListeningPorts& ports);

/// The two lines after the banner, without the last newline: the routes (HTTP, WebSocket and the
/// gRPC echo's methods), then the protocols, "h2 and HTTP/1.1 by ALPN over TLS" with TLS.
std::string serve_routes(const ServeCommand& command);

}  // namespace stampede::cmd
