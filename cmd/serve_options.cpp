// `stampede serve`'s command line: its flags and their ranges, and the lines it prints on start.
#include "cmd/serve_options.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cmd/flag_table.hpp"
#include "cmd/limits.hpp"
#include "cmd/options.hpp"
#include "target_server/certificate.hpp"
#include "target_server/h2_server.hpp"

namespace stampede::cmd {
namespace {

namespace po = boost::program_options;

constexpr std::string_view hint = " (see stampede serve --help)";

/// serve's flags as typed: counts wide and signed, so that "-1" is refused, not wrapped.
struct ServeWords {
  std::int64_t port = 8080;
  std::string bind = "127.0.0.1";
  std::int64_t threads = 1;
  std::int64_t workers = 1;
  std::int64_t tls_port = 0;
  std::string cert;
  std::string key;
  std::int64_t max_streams = 1;
  double idle_timeout = 0;
  std::int64_t max_in_flight = 0;
  bool help = false;
};

template <auto Member>
constexpr auto bound = &into<ServeWords, Member>;

constexpr std::string_view listen = "Where it listens";
constexpr std::string_view serving = "How it serves";
constexpr std::string_view other = "Other";

bool port_ok(std::int64_t port) { return port >= 0 && port <= 65535; }

// Written so that NaN fails every range.
const auto flags = std::to_array<Flag<ServeWords>>({
    {{"--port", "N", "8080", "the port for HTTP/1.1, h2c and WebSocket (0: any free one)", listen,
      "--port must be between 0 (any free port) and 65535"},
     bound<&ServeWords::port>,
     [](const ServeWords& w) { return port_ok(w.port); }},
    {{"--bind", "ADDR", "127.0.0.1", "the address (or host name) to listen on", listen},
     bound<&ServeWords::bind>},
    {{"--tls-port", "N", "no TLS",
      "also serve TLS on this port: h2 or HTTP/1.1 by ALPN, WebSocket too (0: any free one)",
      listen, "--tls-port must be between 0 (any free port) and 65535"},
     bound<&ServeWords::tls_port>,
     [](const ServeWords& w) { return port_ok(w.tls_port); }},
    {{"--cert", "FILE", "a self-signed one made at start",
      "the TLS certificate (PEM), with --key and --tls-port", listen},
     bound<&ServeWords::cert>},
    {{"--key", "FILE", "", "the certificate's private key (PEM)", listen}, bound<&ServeWords::key>},
    {{"--threads", "N", "the cores, shared among the workers",
      "threads serving connections, in each worker", serving,
      "--threads must be between 1 and 1024"},
     bound<&ServeWords::threads>,
     [](const ServeWords& w) { return w.threads >= 1 && w.threads <= max_serve_threads; }},
    {{"--workers", "N", "1",
      "processes sharing the port (SO_REUSEPORT), each with its own open-file limit", serving,
      "--workers must be between 1 and 64"},
     bound<&ServeWords::workers>,
     [](const ServeWords& w) { return w.workers >= 1 && w.workers <= max_serve_workers; }},
    {{"--max-streams", "N", "1000", "the streams an HTTP/2 connection may have open at once",
      serving, "--max-streams must be between 1 and 1000000"},
     bound<&ServeWords::max_streams>,
     [](const ServeWords& w) { return w.max_streams >= 1 && w.max_streams <= max_serve_streams; }},
    {{"--idle-timeout", "S", "60",
      "close an HTTP/1.1 or HTTP/2 connection silent this many seconds (0: never)", serving,
      "--idle-timeout must be 0 (never close an idle connection) or a number of seconds from "
      "0.001 to 31536000 (a year)"},
     bound<&ServeWords::idle_timeout>,
     [](const ServeWords& w) {
       return w.idle_timeout == 0 ||
              (w.idle_timeout >= 0.001 && w.idle_timeout <= limits::max_seconds);
     }},
    {{"--max-in-flight", "K", "no limit",
      "serve at most K requests at once per process, answering 503 past them (a known "
      "capacity to try --sweep on)",
      serving, "--max-in-flight must be 0 (no limit) or between 1 and 100000000"},
     bound<&ServeWords::max_in_flight>,
     [](const ServeWords& w) {
       return w.max_in_flight >= 0 && w.max_in_flight <= max_serve_in_flight;
     }},
    {{"-h, --help", "", "", "this help", other}, bound<&ServeWords::help>},
});

/// --cert and --key, read and checked now: a file that will not do is a usage error (exit 2)
/// before anything listens.
void read_tls_files(const ServeWords& words, target_server::ServeOptions& options) {
  if (words.cert.empty() && words.key.empty()) return;
  if (words.cert.empty() != words.key.empty()) {
    throw UsageError("--cert and --key go together" + std::string(hint));
  }
  if (!options.tls_port) throw UsageError("--cert and --key need --tls-port" + std::string(hint));
  try {
    options.certificate = target_server::read_certificate(words.cert, words.key);
  } catch (const std::runtime_error& error) {
    throw UsageError(error.what());
  }
}

}  // namespace

ServeCommand parse_serve_options(std::span<const char* const> args) {
  ServeWords words;
  const auto values = parse_flags(args, std::span(flags), words, "", hint, hint).values;
  ServeCommand command;
  command.help = words.help;
  if (command.help) return command;
  auto& options = command.server;
  options.bind = words.bind;
  options.port = static_cast<unsigned short>(words.port);
  if (values.count("tls-port") > 0) options.tls_port = static_cast<unsigned short>(words.tls_port);
  read_tls_files(words, options);
  if (values.count("max-streams") > 0) {
    options.max_streams = static_cast<std::uint32_t>(words.max_streams);
  }
  // The server counts milliseconds: less than one would be 0, "never".
  if (values.count("idle-timeout") > 0) {
    options.idle_timeout = std::chrono::milliseconds(std::llround(words.idle_timeout * 1000));
  }
  options.max_in_flight = static_cast<std::uint32_t>(words.max_in_flight);
  command.workers = static_cast<unsigned>(words.workers);
  // Workers share the cores: two workers on two cores get a thread each by default.
  const auto cores = std::max(1U, std::thread::hardware_concurrency());
  options.threads = values.count("threads") > 0 ? static_cast<unsigned>(words.threads)
                                                : std::max(1U, cores / command.workers);
  return command;
}

CommandDoc serve_command_doc() {
  return {
      "serve",
      "stampede serve [--port 8080] [--tls-port 8443] [flags]",
      "the built-in target server, to try stampede on: HTTP/1.1, h2c, TLS with h2, WebSocket "
      "and a gRPC echo on loopback",
      {{listen}, {serving}, {other}},
      docs_of(std::span(flags)),
      "Routes: / (a short text), /json ({\"code\":200,\"msg\":\"ok\"}), /status/{code},\n"
      "/delay/{ms}, /bytes/{n}, /sse (Server-Sent Events), /trickle (a body a chunk at a time);\n"
      "WebSocket: /echo (each message back), /acc (go-stress-testing's ping); gRPC over HTTP/2:\n"
      "/stampede.Echo/Echo (the request's messages back), /stampede.Echo/Fail (the grpc-status\n"
      "its x-fail-code header names), Chat (bidirectional: each message back as it comes),\n"
      "Collect (client streaming: the last message back), Repeat (server streaming: the\n"
      "request's messages x-count times, x-interval-ms apart).\n"
      "Its certificate is self-signed: clients need --insecure (curl -k), or to trust it.\n"
      "Ctrl-C or SIGTERM stops it. More: docs/serve.md.\n"};
}

std::string serve_banner(const ServeCommand& command, const target_server::ListeningPorts& ports) {
  const auto threads = command.server.threads;
  auto how = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  if (command.workers > 1) {
    const auto* sharing =
        command.server.tls_port ? " workers sharing the ports, " : " workers sharing the port, ";
    how = std::to_string(command.workers) + sharing + how + " each";
  }
  if (const auto most = command.server.max_in_flight; most > 0) {
    // Each worker counts its own: the limit is per process.
    how += ", at most " + std::to_string(most) + (most == 1 ? " request" : " requests") +
           " in flight" + (command.workers > 1 ? " each" : "");
  }
  const auto& bind = command.server.bind;
  auto where = "http://" + target_server::host_port(bind, ports.port) + "/";
  if (command.server.tls_port)
    where += " and https://" + target_server::host_port(bind, ports.tls_port) + "/";
  return "stampede serve: listening on " + where + " (" + how + "; Ctrl-C stops)";
}

std::string serve_routes(const ServeCommand& command) {
  return std::string(
             "routes: /  /json  /status/{code}  /delay/{ms}  /bytes/{n}  /sse  /trickle  "
             "WebSocket: /echo  /acc  gRPC (HTTP/2): /stampede.Echo/{Echo,Fail,Chat,Collect,"
             "Repeat}\nHTTP/1.1 and h2c (prior knowledge or Upgrade)") +
         (command.server.tls_port ? ", h2 and HTTP/1.1 by ALPN over TLS" : "");
}

}  // namespace stampede::cmd
