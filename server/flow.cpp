// Flow: resolves each origin once and serializes each step once, before any user starts.
#include "server/flow.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <stdexcept>

#include "server/client/tls_context.hpp"

namespace stampede::server {

namespace {

namespace net = boost::asio;

/// The addresses of the request's host, or of the host its route names instead.
std::vector<net::ip::tcp::endpoint> resolve(const model::Request& request) {
  const auto& route = request.route;
  const auto& host = route.host.empty() ? request.origin.host : route.host;
  const auto port = route.port == 0 ? request.origin.port : route.port;
  net::io_context context;
  net::ip::tcp::resolver resolver(context);
  boost::system::error_code error;
  const auto results = resolver.resolve(host, std::to_string(port), error);
  if (error || results.empty()) {
    throw std::runtime_error("cannot resolve '" + host + "': " + error.message());
  }
  return {results.begin(), results.end()};
}

/// --source-ips as addresses; cmd has checked the text, so a failure here is a caller's bug.
std::vector<net::ip::address> source_addresses(const model::Plan& plan) {
  std::vector<net::ip::address> sources;
  for (const auto& text : plan.source_addresses) sources.push_back(net::ip::make_address(text));
  return sources;
}

/// Steps share a user's connection when they go to the same origin by the same route and check
/// its certificate and resume its sessions alike (the TLS context is the connection's).
bool same_connection(const model::Request& a, const model::Request& b) {
  return a.origin == b.origin && a.route == b.route && a.insecure == b.insecure &&
         a.tls_resume == b.tls_resume;
}

std::string step_name(const model::Request& request) {
  return request.method + " " + request.origin.url() + request.target;
}

/// How the request's responses are read: whole, or as a stream of events, gRPC messages or
/// chunks.
client::StreamAs stream_as(const model::Request& request) {
  if (model::asks_event_stream(request)) return client::StreamAs::events;
  if (!request.stream) return client::StreamAs::whole;
  return model::is_grpc(request.origin.scheme) ? client::StreamAs::messages
                                               : client::StreamAs::chunks;
}

bool captures_read_body(const std::vector<model::Request>& requests) {
  return std::any_of(requests.begin(), requests.end(), [](const model::Request& request) {
    return std::any_of(request.captures.begin(), request.captures.end(), [](const auto& capture) {
      return capture.source != model::CaptureSource::header;
    });
  });
}

}  // namespace

std::vector<std::string> capture_names(const std::vector<model::Request>& requests) {
  std::vector<std::string> names;
  for (const auto& request : requests) {
    for (const auto& capture : request.captures) {
      if (std::find(names.begin(), names.end(), capture.name) == names.end()) {
        names.push_back(capture.name);
      }
    }
  }
  return names;
}

std::vector<net::ip::tcp::endpoint> reachable_from(std::vector<net::ip::tcp::endpoint> endpoints,
                                                   const std::vector<net::ip::address>& sources,
                                                   const std::string& host) {
  if (sources.empty()) return endpoints;
  const bool v6 = sources.front().is_v6();
  std::erase_if(endpoints, [v6](const auto& endpoint) { return endpoint.address().is_v6() != v6; });
  if (endpoints.empty()) {
    throw std::runtime_error("'" + host + "' has no " + (v6 ? "IPv6" : "IPv4") +
                             " address, and --source-ips gives only " + (v6 ? "IPv6" : "IPv4") +
                             " ones (give source addresses of the server's family)");
  }
  return endpoints;
}

Flow::Flow(std::vector<model::Request> requests, const model::Plan& plan, bool keep_body)
    : capture_names_(server::capture_names(requests)), mix_(plan.mix), data_(plan.data) {
  for (const auto& flow : mix_) mix_weight_ += flow.weight;
  const session::TemplateNames names{capture_names_,
                                     data_ ? data_->columns : std::span<const std::string>()};
  keep_body = keep_body || captures_read_body(requests);
  steps_.reserve(requests.size());
  for (auto& request : requests) {
    const auto destination = destination_of(request, plan, keep_body);
    // Its destination's first step decided: each step to it asks to upgrade, or none does.
    if (destinations_[destination]->setup.h2c_upgrade) {
      request.http_version = model::HttpVersion::http2;
    }
    auto prepared = client::prepare(request, destinations_[destination]->setup.protocol);
    auto name = step_name(request);
    auto variables = RequestTemplate::of(prepared, names);
    std::vector<session::CompiledCapture> captures;
    for (const auto& capture : request.captures) {
      const auto slot = std::find(capture_names_.begin(), capture_names_.end(), capture.name);
      captures.emplace_back(capture, static_cast<std::size_t>(slot - capture_names_.begin()));
      if (capture.source == model::CaptureSource::header &&
          std::find(capture_headers_.begin(), capture_headers_.end(), capture.path) ==
              capture_headers_.end()) {
        capture_headers_.push_back(capture.path);
      }
    }
    if (request.digest && std::find(capture_headers_.begin(), capture_headers_.end(),
                                    "www-authenticate") == capture_headers_.end()) {
      capture_headers_.push_back("www-authenticate");  // its challenge
    }
    steps_.push_back({std::move(request), std::move(prepared), destination, std::move(name),
                      std::move(variables), std::nullopt, std::move(captures)});
  }
  for (auto& step : steps_) {
    if (!step.request.follow_redirects && !step.request.digest) continue;
    client::set_answers_of(step.prepared, &step.request);
    // Its hops are built from the request as sent: its variables are rendered there first.
    if (step.variables) step.fields = FieldsTemplate::of(step.request, names);
  }
}

std::string Flow::variable_name(const session::Variable& variable) const {
  if (variable.kind == session::VariableKind::captured) {
    return "${" + capture_names_.at(variable.slot) + "}";
  }
  if (variable.kind == session::VariableKind::csv && data_) {
    return "${csv:" + data_->columns.at(variable.slot) + "}";
  }
  return "a variable";  // only captured and --data-file values can be unsafe
}

const std::vector<std::string>* Flow::row_for(session::UserValues& values) const {
  if (!data_) return nullptr;
  const auto& rows = data_->rows;
  switch (data_->mode) {
    case model::DataMode::per_user:
      return &rows[values.user % rows.size()];
    case model::DataMode::per_request:
      return &rows[next_row_.fetch_add(1, std::memory_order_relaxed) % rows.size()];
    case model::DataMode::random:
      return &rows[values.random.below(rows.size())];
  }
  return nullptr;
}

StepRange Flow::round_steps(session::UserValues& values) const {
  if (mix_.empty()) return {0, steps_.size()};
  auto draw = values.random.below(mix_weight_);
  for (const auto& flow : mix_) {
    if (draw < flow.weight) return {flow.first, flow.count};
    draw -= flow.weight;
  }
  return {mix_.back().first, mix_.back().count};  // not reached: the draw is below the sum
}

bool Flow::long_lived() const {
  return std::any_of(destinations_.begin(), destinations_.end(), [](const auto& destination) {
    const auto& setup = destination->setup;
    return setup.protocol == model::Protocol::websocket ||
           setup.stream_as != client::StreamAs::whole ||
           (setup.protocol == model::Protocol::http2 && setup.hold);
  });
}

bool Flow::over_http2() const {
  return std::any_of(destinations_.begin(), destinations_.end(), [](const auto& destination) {
    return destination->setup.protocol == model::Protocol::http2;
  });
}

std::chrono::nanoseconds Flow::shortest_timeout(std::chrono::nanoseconds run) const {
  auto shortest = run;
  for (const auto& step : steps_) {
    for (const auto limit : {step.prepared.timeout, step.prepared.connect_timeout}) {
      if (limit.count() > 0) shortest = std::min(shortest, limit);
    }
  }
  // A held HTTP/2 connection's PINGs are timed by the watchdog (Beast times WebSocket's).
  for (const auto& destination : destinations_) {
    const auto& setup = destination->setup;
    if (setup.protocol == model::Protocol::http2 && setup.hold && setup.ping_interval.count() > 0) {
      shortest = std::min(shortest, setup.ping_interval);
    }
  }
  return shortest;
}

std::size_t Flow::destination_of(const model::Request& request, const model::Plan& plan,
                                 bool keep_body) {
  for (const auto& step : steps_) {
    if (same_connection(step.request, request)) return step.destination;
  }
  auto destination = std::make_unique<Destination>();
  // The first step to a destination decides its protocol: one user's steps share one
  // connection.
  const auto protocol = model::protocol_of(request);
  if (request.origin.secure()) {
    destination->tls.emplace(client::make_tls_context(
        request.insecure, protocol == model::Protocol::http2, request.tls_resume));
  }
  auto& setup = destination->setup;
  setup.unix_socket = request.route.unix_socket;
  if (setup.unix_socket.empty()) {
    setup.sources = source_addresses(plan);
    setup.endpoints = reachable_from(resolve(request), setup.sources, request.origin.host);
  }
  setup.host = request.origin.host;
  setup.tls = destination->tls ? &*destination->tls : nullptr;
  setup.timeout = plan.request_timeout;
  setup.keep_alive = request.keep_alive;
  setup.protocol = protocol;
  setup.h2c_upgrade = model::asks_h2c_upgrade(request);
  setup.stream_as = stream_as(request);
  setup.reconnect = plan.reconnect;
  setup.messages_per_call = plan.rounds_per_user;
  setup.scheduled_streams = plan.rate > 0;
  // A gRPC call's body is read for its status (whole messages, one for a unary call).
  setup.keep_body = keep_body || model::is_grpc(request.origin.scheme);
  setup.insecure = request.insecure;
  setup.ping_interval = plan.ping;
  setup.hold = plan.hold.count() > 0;
  setup.debug_budget = static_cast<int>(plan.debug_exchanges);
  destinations_.push_back(std::move(destination));
  return destinations_.size() - 1;
}

}  // namespace stampede::server
