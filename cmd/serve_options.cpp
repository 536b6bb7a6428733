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

#include <boost/program_options.hpp>

#include "cmd/limits.hpp"
#include "cmd/options.hpp"
#include "target/certificate.hpp"
#include "target/h2_server.hpp"

namespace stampede::cmd {
namespace {

namespace po = boost::program_options;

constexpr std::string_view usage =
    " (usage: stampede serve [--port 8080] [--bind 127.0.0.1] [--threads N] [--workers N] "
    "[--tls-port 8443 [--cert FILE --key FILE]] [--max-streams N] [--idle-timeout S] "
    "[--max-in-flight K])";

[[noreturn]] void refuse_serve(const std::string& what) {
  throw UsageError(what + std::string(usage));
}

/// Reads the words; counts are read wide and signed so that "-1" is refused, not wrapped.
po::variables_map read_serve_words(std::span<const char* const> args, std::string& bind) {
  po::options_description description;
  description.add_options()("port", po::value<std::int64_t>())("bind", po::value(&bind))(
      "threads", po::value<std::int64_t>())("workers", po::value<std::int64_t>())(
      "tls-port", po::value<std::int64_t>())("cert", po::value<std::string>())(
      "key", po::value<std::string>())("max-streams", po::value<std::int64_t>())(
      "idle-timeout", po::value<double>())("max-in-flight", po::value<std::int64_t>());
  const auto style =
      (po::command_line_style::default_style | po::command_line_style::allow_long_disguise) &
      ~po::command_line_style::allow_guessing;
  po::variables_map values;
  try {
    const auto parsed = po::command_line_parser(std::vector<std::string>(args.begin(), args.end()))
                            .options(description)
                            .style(style)
                            .run();
    // Without a positional description Boost keeps stray words aside and store() drops them.
    for (const auto& option : parsed.options) {
      if (option.position_key >= 0)
        refuse_serve("unexpected argument '" + option.value.front() + "'");
    }
    po::store(parsed, values);
    po::notify(values);
  } catch (const po::error& error) {
    refuse_serve(error.what());
  }
  return values;
}

/// The count given for `name`, within [1, most]; `fallback` if it is not given.
unsigned count_of(const po::variables_map& values, const char* name, int most, unsigned fallback) {
  if (values.count(name) == 0) return fallback;
  const auto count = values[name].as<std::int64_t>();
  if (count < 1 || count > most) {
    refuse_serve("--" + std::string(name) + " must be between 1 and " + std::to_string(most));
  }
  return static_cast<unsigned>(count);
}

/// The port given for `name`, 0..65535; nothing if it is not given.
std::optional<unsigned short> port_of(const po::variables_map& values, const char* name) {
  if (values.count(name) == 0) return std::nullopt;
  const auto port = values[name].as<std::int64_t>();
  if (port < 0 || port > std::numeric_limits<unsigned short>::max()) {
    refuse_serve("--" + std::string(name) + " must be between 0 (any free port) and 65535");
  }
  return static_cast<unsigned short>(port);
}

/// --idle-timeout S: seconds, fractions too, at most a year (limits::max_seconds); 0 turns the
/// timeout off. The server counts milliseconds, so less than one would be 0, "never".
std::chrono::milliseconds idle_timeout_of(const po::variables_map& values) {
  if (values.count("idle-timeout") == 0) return target::default_idle_timeout;
  const auto seconds = values["idle-timeout"].as<double>();
  if (seconds == 0) return std::chrono::milliseconds::zero();
  // Written so that NaN fails too.
  if (!(seconds >= 0.001 && seconds <= limits::max_seconds)) {
    refuse_serve(
        "--idle-timeout must be 0 (never close an idle connection) or a number of seconds from "
        "0.001 to 31536000 (a year)");
  }
  return std::chrono::milliseconds(std::llround(seconds * 1000));
}

/// --max-in-flight K: requests each process serves at once, past which it answers 503; 0 (the
/// default) is no limit.
std::uint32_t max_in_flight_of(const po::variables_map& values) {
  if (values.count("max-in-flight") == 0) return 0;
  const auto most = values["max-in-flight"].as<std::int64_t>();
  if (most < 0 || most > max_serve_in_flight) {
    refuse_serve("--max-in-flight must be 0 (no limit) or between 1 and " +
                 std::to_string(max_serve_in_flight));
  }
  return static_cast<std::uint32_t>(most);
}

/// --cert and --key, read and checked now: a file that will not do is a usage error (exit 2)
/// before anything listens.
void read_tls_files(const po::variables_map& values, target::ServeOptions& options) {
  const bool cert = values.count("cert") != 0;
  const bool key = values.count("key") != 0;
  if (!cert && !key) return;
  if (cert != key) refuse_serve("--cert and --key go together");
  if (!options.tls_port) refuse_serve("--cert and --key need --tls-port");
  try {
    options.certificate =
        target::read_certificate(values["cert"].as<std::string>(), values["key"].as<std::string>());
  } catch (const std::runtime_error& error) {
    throw UsageError(error.what());
  }
}

}  // namespace

ServeCommand parse_serve_options(std::span<const char* const> args) {
  ServeCommand command;
  auto& options = command.server;
  const auto values = read_serve_words(args, options.bind);
  options.port = port_of(values, "port").value_or(options.port);
  options.tls_port = port_of(values, "tls-port");
  read_tls_files(values, options);
  options.max_streams =
      count_of(values, "max-streams", max_serve_streams, target::default_max_streams);
  options.idle_timeout = idle_timeout_of(values);
  options.max_in_flight = max_in_flight_of(values);
  command.workers = count_of(values, "workers", max_serve_workers, 1);
  // Workers share the cores: two workers on two cores get a thread each by default.
  const auto cores = std::max(1U, std::thread::hardware_concurrency());
  options.threads =
      count_of(values, "threads", max_serve_threads, std::max(1U, cores / command.workers));
  return command;
}

std::string serve_banner(const ServeCommand& command, const target::ListeningPorts& ports) {
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
  auto where = "http://" + target::host_port(bind, ports.port) + "/";
  if (command.server.tls_port)
    where += " and https://" + target::host_port(bind, ports.tls_port) + "/";
  return "stampede serve: listening on " + where + " (" + how + "; Ctrl-C stops)";
}

std::string serve_routes(const ServeCommand& command) {
  return "routes: /  /json  /status/{code}  /delay/{ms}  /bytes/{n}  WebSocket: /echo  /acc  "
         "gRPC (HTTP/2): " +
         std::string(target::grpc_echo_path) + "  " + std::string(target::grpc_fail_path) +
         "\nHTTP/1.1 and h2c (prior knowledge or Upgrade)" +
         (command.server.tls_port ? ", h2 and HTTP/1.1 by ALPN over TLS" : "");
}

}  // namespace stampede::cmd
