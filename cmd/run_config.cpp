// make_run_config(): every user-facing check of what to send lives here, before any traffic.
#include "cmd/run_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cmd/curl_steps.hpp"
#include "cmd/data_file.hpp"
#include "cmd/duration_flag.hpp"
#include "cmd/expect_flags.hpp"
#include "cmd/header_flag.hpp"
#include "cmd/source_ips.hpp"
#include "cmd/stages_flag.hpp"
#include "cmd/step_variables.hpp"
#include "curl/url.hpp"
#include "grpc/framing.hpp"
#include "model/protocol.hpp"

namespace stampede::cmd {

namespace {

/// -data @file: a regular file only (a directory would read as an empty body, a device or
/// a pipe might never end).
std::string read_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw UsageError("-data @" + path + ": '" + path + "' is a directory (name a file after @)");
  }
  std::ifstream file;
  if (std::filesystem::is_regular_file(path, error)) file.open(path, std::ios::binary);
  if (!file.is_open()) {
    throw UsageError("cannot read -data file '" + path + "' (check the path after @)");
  }
  std::ostringstream content;
  content << file.rdbuf();
  if (file.bad()) throw UsageError("cannot read -data file '" + path + "'");
  return content.str();
}

/// The files the flags name for reading (a curl file's own come with its steps).
void add_flag_inputs(const Options& options, std::vector<NamedFile>& inputs) {
  if (options.data.starts_with("@")) inputs.push_back({"-data's file", options.data.substr(1)});
  for (const auto* file : {&options.csv_file, &options.data_file}) {
    if (!file->empty()) inputs.push_back({"--data-file's file", *file});
  }
  for (const auto& proto : options.proto_files) {
    inputs.push_back({"a --proto file", proto});
    for (const auto& folder : options.import_paths) {
      inputs.push_back({"a --proto file", std::filesystem::path(folder) / proto});
    }
  }
}

model::Plan make_plan(const Options& options) {
  using std::chrono::milliseconds;
  model::Plan plan;
  plan.users = static_cast<std::uint64_t>(options.users);
  plan.rounds_per_user = static_cast<std::uint64_t>(options.requests);
  plan.threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                     : std::max(1U, std::thread::hardware_concurrency());
  plan.request_timeout = milliseconds(static_cast<long long>(options.request_timeout_s * 1000));
  plan.run_timeout = milliseconds(static_cast<long long>(options.run_timeout_s * 1000));
  plan.debug_exchanges = options.debug ? 5 : 0;
  plan.hold = options.hold_s == Options::hold_forever
                  ? milliseconds::max()
                  : milliseconds(static_cast<long long>(options.hold_s * 1000));
  plan.ping = milliseconds(static_cast<long long>(options.ping_s * 1000));
  // In microseconds: --interval 0.0025 is 2.5 ms, not 2.
  plan.interval = std::chrono::microseconds(std::llround(options.interval_s * 1e6));
  if (!options.think.empty() && options.think != Options::think_har) {
    const auto think = parse_duration_range(options.think, "--think");
    plan.think_min = think.min;
    plan.think_max = think.max;
  }
  plan.connect_rate = static_cast<std::uint64_t>(options.connect_rate);
  plan.listen = options.listen;
  plan.reconnect = options.reconnect;
  plan.cookies = !options.no_cookies;
  plan.connections = static_cast<std::uint64_t>(options.connections);
  // -z: each user sends until the time is up; with --listen, its -n messages, then it listens
  // until the time is up.
  if (!options.duration.empty()) {
    plan.duration = parse_duration(options.duration, "-z");
    if (!options.listen) plan.rounds_per_user = 0;
  }
  // --rate: -n is the run's total (with -z, the time decides).
  plan.rate = options.rate;
  if (options.has_rate && options.duration.empty()) plan.rate_rounds = plan.rounds_per_user;
  if (!options.ramp.empty()) plan.ramp = parse_duration(options.ramp, "--ramp");
  // --stages: the users (or the rate) follow them, for their length; their peak is the users
  // (or the rate: -c, if given, is then the cap on requests in flight).
  if (!options.stages.empty()) {
    auto [stages, per_second] = parse_stages(options.stages);
    plan.stages = std::move(stages);
    std::uint64_t peak = 0;
    plan.duration = std::chrono::milliseconds(0);
    for (const auto& stage : plan.stages) {
      peak = std::max(peak, stage.target);
      plan.duration += stage.duration;
    }
    if (per_second) {
      plan.rate = static_cast<double>(peak);
    } else {
      plan.users = peak;
    }
    plan.rounds_per_user = 0;
  }
  // --listen without -data sends nothing: it only counts what the server pushes.
  if (options.listen && !options.has_data) plan.rounds_per_user = 0;
  // An empty --source-ips is Go's empty string flag: the default, the kernel picks.
  if (!options.source_ips.empty()) {
    for (const auto& address : parse_source_ips(options.source_ips)) {
      plan.source_addresses.push_back(address.to_string());
    }
  }
  return plan;
}

/// The request of a run without -p: everything comes from the flags.
model::Request request_from_flags(const Options& options) {
  if (options.url.empty())
    throw UsageError("no URL given (use -u http://host:port/path, or -p FILE)");
  model::Request request;
  const auto credentials = apply_url(options.url, request);
  for (const auto& header : options.headers) {
    apply_header(parse_header_flag(header), /*replace=*/false, request);
  }
  add_basic_auth(credentials, request);
  if (!options.data.empty() || options.has_data) request.body = body_of(options);
  request.method = !options.method.empty() ? options.method : options.has_data ? "POST" : "GET";
  request.keep_alive = options.keep_alive;
  request.follow_redirects = options.redirect;
  request.insecure = options.insecure;
  request.tls_resume = !options.no_tls_resume;
  if (options.http2) request.http_version = model::HttpVersion::http2_prior_knowledge;
  if (options.sse) apply_header({"Accept", "text/event-stream"}, /*replace=*/true, request);
  apply_message_flags(options, request);
  return request;
}

/// True when some step goes over `protocol`.
bool any_step_over(const std::vector<model::Request>& steps, model::Protocol protocol) {
  return std::any_of(steps.begin(), steps.end(),
                     [protocol](const auto& step) { return model::protocol_of(step) == protocol; });
}

/// --hold, --ping, --listen: which steps' connections they hold, or a UsageError when none.
/// WebSocket connections are long-lived; HTTP/2 ones are with --hold, which keeps each user's
/// connection for its requests as -k does, so that there is one to hold. HTTP/1.1 has none:
/// after its requests nothing more may come on the connection.
void apply_hold(RunConfig& config) {
  const auto& plan = config.plan;
  const bool websocket = any_step_over(config.steps, model::Protocol::websocket);
  const bool http2 = any_step_over(config.steps, model::Protocol::http2);
  const bool hold = plan.hold.count() > 0;
  if (plan.listen && !websocket) {
    throw UsageError(
        "--listen needs a ws:// or wss:// URL (it counts what a WebSocket server pushes)");
  }
  if (hold && !websocket && !http2) {
    throw UsageError(
        "--hold needs a ws:// or wss:// URL, or -http2 (it holds WebSocket or HTTP/2 "
        "connections open; HTTP/1.1 has none to hold)");
  }
  if (plan.ping.count() > 0 && !websocket && !(http2 && hold)) {
    throw UsageError(http2 ? "--ping with -http2 needs --hold (held HTTP/2 connections are pinged)"
                           : "--ping needs a ws:// or wss:// URL, or -http2 with --hold (it pings "
                             "held connections)");
  }
  if (hold) {
    for (auto& step : config.steps) {
      if (model::protocol_of(step) == model::Protocol::http2) step.keep_alive = true;
    }
  }
  config.long_lived = websocket || (http2 && hold);
}

/// A stream (--sse, a step that accepts text/event-stream, --stream) is read a unit at a time,
/// an exchange each: its units come at the server's pace, so --rate schedules the streams'
/// starts, except a gRPC call whose requests stream (the user's messages are its pace).
void apply_streams(const Options& options, RunConfig& config) {
  if (options.stream && options.sse) {
    throw UsageError("--sse reads events and --stream a response's pieces: give one");
  }
  bool streams = false;
  for (auto& step : config.steps) {
    step.stream = options.stream;
    if (!model::reads_stream(step)) continue;
    streams = true;
    if (model::protocol_of(step) == model::Protocol::websocket) {
      throw UsageError(
          "--sse and --stream read an HTTP response (or a gRPC call's answer): a WebSocket's "
          "messages are its exchanges already");
    }
    if (model::asks_event_stream(step) && model::is_grpc(step.origin.scheme)) {
      throw UsageError("--sse reads an HTTP response: a gRPC call's answer streams with --stream");
    }
    if (model::asks_h2c_upgrade(step)) {
      throw UsageError(
          "a stream over an h2c upgrade (--http2 on http:// in a curl file): use "
          "--http2-prior-knowledge, or -http2");
    }
  }
  if (!streams) return;
  if (config.plan.hold.count() > 0) {
    throw UsageError(
        "--hold keeps connections open after their requests, but a stream is read as long as "
        "it lasts: give -z for how long to read it");
  }
  const auto& first = config.steps.front();  // a gRPC call is the run's one step
  if (config.plan.rate > 0 && first.grpc_client_streaming) {
    throw UsageError(
        "--rate schedules streams' starts, but a call whose requests stream goes at its "
        "messages' pace: give -c and -n (messages per user)");
  }
  if (first.stream && config.grpc_method && !first.grpc_server_streaming &&
      !first.grpc_client_streaming) {
    throw UsageError(
        "--stream on a gRPC call reads a server-streaming method's answers one by one: this "
        "method answers once");
  }
  if (first.grpc_client_streaming && !first.grpc_server_streaming &&
      config.plan.rounds_per_user == 0) {
    throw UsageError(
        "a client-streaming call sends -n messages, then reads its one answer: give -n, not "
        "-z");
  }
  config.long_lived = true;
}

/// A grpc:// or grpcs:// URL makes the run's request a gRPC call, judged by its gRPC status
/// (or, with -v json, its decoded answer); a curl file has no gRPC (curl speaks none).
void apply_grpc(const Options& options, RunConfig& config) {
  const bool grpc = model::is_grpc(config.steps.front().origin.scheme);
  if (!options.curl_files.empty()) {
    for (const auto& step : config.steps) {
      if (model::is_grpc(step.origin.scheme)) {
        throw UsageError("a gRPC URL in a curl file (gRPC calls come from -u with --proto)");
      }
    }
  }
  if (!grpc) {
    if (!options.proto_files.empty() || !options.data_file.empty()) {
      throw UsageError("--proto and --data-file are for gRPC calls (a grpc:// or grpcs:// URL)");
    }
    config.verifier = with_expectations(
        options, verify::make_verifier(options.verify, static_cast<int>(options.code)),
        options.verify == "statusCode");
    return;
  }
  config.grpc_method = make_grpc_call(options, config.steps.front());
  config.verifier = make_grpc_verifier(options, config.grpc_method);
}

/// -m shares HTTP/2 connections among the users, so it needs an HTTP/2 step, and it does not
/// go with --hold, whose held connections are each user's own, nor with an h2c upgrade, which
/// one user's request asks for.
void check_shared_connections(const RunConfig& config) {
  if (config.plan.connections == 0) return;
  if (!any_step_over(config.steps, model::Protocol::http2)) {
    throw UsageError(
        "-m needs -http2 (the users share HTTP/2 connections; over HTTP/1.1 each user keeps "
        "its own)");
  }
  if (config.plan.hold.count() > 0) {
    throw UsageError("-m with --hold: held HTTP/2 connections are each user's own (drop -m)");
  }
  if (std::any_of(config.steps.begin(), config.steps.end(), model::asks_h2c_upgrade)) {
    throw UsageError(
        "-m with --http2 on http://: a shared connection cannot start by one user's upgrade "
        "request (use --http2-prior-knowledge in the curl file, or -http2)");
  }
}

/// --no-cookies leaves no jar for `-b FILE`'s cookies to go in: they are not sent, and the user
/// is told so.
void note_cookie_files(RunConfig& config) {
  const bool files = std::any_of(config.steps.begin(), config.steps.end(),
                                 [](const auto& step) { return !step.jar_cookies.empty(); });
  if (files && !config.plan.cookies) {
    config.warnings.emplace_back(
        "--no-cookies: the cookies of the -b files are not sent (they go to each user's jar, "
        "which is off)");
  }
}

}  // namespace

std::string apply_url(std::string_view url, model::Request& request) {
  try {
    return curl::apply_url(url, request);
  } catch (const curl::UrlError& error) {
    throw UsageError(error.what());
  }
}

std::string body_of(const Options& options) {
  return options.data.starts_with("@") ? read_file(options.data.substr(1)) : options.data;
}

void apply_message_flags(const Options& options, model::Request& request) {
  request.binary = options.binary;
  // Unless --max-message says: 1 MiB for WebSocket, grpc-go's and grpc-java's 4 MiB for gRPC.
  const bool grpc_default = !options.has_max_message && model::is_grpc(request.origin.scheme);
  request.max_message =
      grpc_default ? grpc::default_max_message : static_cast<std::uint64_t>(options.max_message);
  if (options.http2 && model::is_websocket(request.origin.scheme)) {
    throw UsageError("-http2 with a " + std::string(request.origin.scheme_name()) +
                     ":// URL (WebSocket goes by HTTP/1.1's upgrade; drop -http2)");
  }
}

RunConfig make_run_config(const Options& options) {
  RunConfig config;
  FileSteps files;
  if (options.curl_files.empty()) {
    config.steps.push_back(request_from_flags(options));
  } else {
    files = curl_steps(options);
    config.steps = std::move(files.steps);
    config.warnings = std::move(files.warnings);
    config.inputs = std::move(files.inputs);
    config.notes = std::move(files.notes);
  }
  add_flag_inputs(options, config.inputs);
  config.plan = make_plan(options);
  config.plan.mix = std::move(files.mix);
  if (!options.csv_file.empty()) {
    config.plan.data = read_data_file(options.csv_file, options.data_mode);
  } else if (!options.data_mode.empty()) {
    throw UsageError("--data-mode chooses the rows of a --data-file FILE.csv; there is none");
  }
  config.shard = shard_position(options, std::getenv("JOB_COMPLETION_INDEX"));
  if (config.shard) {
    slice_plan(config.plan, *config.shard, options.has_users);
    if (!options.told_at.empty())
      config.shard->told_at = parse_instant(options.told_at, "--told-at");
  }
  if (!options.start_at.empty()) config.plan.start_at = parse_instant(options.start_at);
  // A step's --max-time bounds its exchanges, unless -t on the command line says otherwise.
  if (options.has_request_timeout) {
    for (auto& step : config.steps) step.max_time = {};
  }
  apply_grpc(options, config);
  apply_hold(config);
  apply_streams(options, config);
  check_shared_connections(config);
  apply_captures(options.captures, config.steps);
  check_step_variables(config.steps, config.plan);
  note_cookie_files(config);
  return config;
}

}  // namespace stampede::cmd
