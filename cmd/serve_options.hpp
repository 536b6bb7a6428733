// `stampede serve`'s command line: its flags and their ranges, and the lines it prints on start.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "target/server.hpp"

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
  target::ServeOptions server;  ///< what each worker serves
  unsigned workers = 1;         ///< processes sharing the port (target::serve_in_workers)
};

/// Parses `stampede serve`'s arguments (the words after "serve"): --port 0..65535 (0 picks a
/// free port), --bind ADDR, --threads 1..max_serve_threads threads per worker (default: the
/// cores shared among the workers, at least one each), --workers 1..max_serve_workers (default
/// 1), --tls-port 0..65535 (TLS off without it), --cert FILE and --key FILE (PEM, both or
/// neither, with --tls-port: read and checked here), --max-streams 1..max_serve_streams
/// (default target::default_max_streams), --idle-timeout S seconds 0.001..31536000 or 0 for never
/// (default target::default_idle_timeout), --max-in-flight K 1..max_serve_in_flight requests
/// served at once by each worker process, or 0 for no limit (the default). Throws UsageError
/// naming the mistake, with the usage, for anything else; for a certificate or key it cannot
/// use, naming the file alone.
ServeCommand parse_serve_options(std::span<const char* const> args);

/// The first line `serve` prints: "stampede serve: listening on http://[::1]:8080/ (1 thread;
/// Ctrl-C stops)", with TLS "listening on http://127.0.0.1:8080/ and https://127.0.0.1:8443/
/// (...)", with workers "(2 workers sharing the port, 1 thread each; Ctrl-C stops)", with
/// --max-in-flight "(1 thread, at most 4 requests in flight; ...)" ("... in flight each" with
/// workers); `ports` are the ones bound.
std::string serve_banner(const ServeCommand& command, const target::ListeningPorts& ports);

/// The two lines after the banner, without the last newline: the routes (HTTP, WebSocket and the
/// gRPC echo's methods), then the protocols, "h2 and HTTP/1.1 by ALPN over TLS" with TLS.
std::string serve_routes(const ServeCommand& command);

}  // namespace stampede::cmd
