// --print-request: what each step would send, printed instead of sent.
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>
#include <variant>

#include "cmd/run_config.hpp"
#include "server/client/prepared_request.hpp"
#include "server/flow.hpp"
#include "server/request_template.hpp"
#include "server/session/cookie_jar.hpp"

namespace stampede::cmd {

namespace {

/// A gRPC call as a person reads it: its header list, then its message as JSON (protobuf on
/// the wire, framed).
std::string printable_call(const model::Request& step, const GrpcMethod& method) {
  auto prepared = client::prepare(step, model::Protocol::http2);
  auto& wire = std::get<client::Http2Wire>(prepared.wire);
  const auto body = std::exchange(wire.body, {});
  return client::printable(prepared) + printable_grpc_message(method, body);
}

/// `prepared` with its variables as the first user's first round renders them (the first row
/// of --data-file); a captured variable, whose value only a response gives, stays as written.
client::PreparedRequest rendered(const client::PreparedRequest& prepared,
                                 const std::vector<std::string>& captured,
                                 const model::DataRows* data) {
  const session::TemplateNames names{captured,
                                     data ? data->columns : std::span<const std::string>()};
  const auto variables = server::RequestTemplate::of(prepared, names);
  if (!variables) return prepared;
  session::UserValues first_user(0);
  for (const auto& name : captured) first_user.captured.push_back("${" + name + "}");
  if (data) first_user.row = &data->rows.front();
  client::RequestCopy copy;
  return variables->render(prepared, first_user, copy);
}

void note_protocol(const model::Request& step, model::Protocol protocol, std::size_t i) {
  if (model::is_grpc(step.origin.scheme)) {
    std::fprintf(stderr,
                 "stampede: note: step %zu is a gRPC call: its header list and its message (as "
                 "JSON; protobuf on the wire) follow\n",
                 i + 1);
  } else if (model::asks_h2c_upgrade(step)) {
    std::fprintf(stderr,
                 "stampede: note: step %zu asks to upgrade to HTTP/2 (h2c) as curl does: its "
                 "HTTP/1.1 form follows; a server that answers 101 sends the response on HTTP/2 "
                 "and the connection's later requests go as HTTP/2\n",
                 i + 1);
  } else if (protocol == model::Protocol::http2) {
    std::fprintf(
        stderr, "stampede: note: step %zu goes as HTTP/2: its header list follows%s\n", i + 1,
        step.origin.secure() ? " (the HTTP/1.1 form goes if the server picks http/1.1 by ALPN)"
                             : "");
  }
}

}  // namespace

/// The first user's jar as it starts: the cookies of the steps' `-b FILE`s.
session::CookieJar first_jar(const RunConfig& config) {
  session::CookieJar jar;
  if (!config.plan.cookies) return jar;
  const auto now = static_cast<session::UnixSeconds>(std::time(nullptr));
  for (const auto& step : config.steps) {
    for (const auto& cookie : step.jar_cookies) jar.load(cookie, now);
  }
  return jar;
}

/// `prepared` with the cookies `jar` sends to `step`'s URL, as its first request carries them.
client::PreparedRequest with_jar(const client::PreparedRequest& prepared,
                                 const model::Request& step, const session::CookieJar& jar) {
  std::string cookies;
  jar.header_for(step.origin, step.target, static_cast<session::UnixSeconds>(std::time(nullptr)),
                 cookies);
  if (cookies.empty()) return prepared;
  client::RequestCopy copy;
  return client::with_cookies(prepared, cookies, copy);
}

void print_requests(const RunConfig& config) {
  const auto count = config.steps.size();
  const auto captured = server::capture_names(config.steps);
  const auto jar = first_jar(config);
  for (std::size_t i = 0; i < count; ++i) {
    if (count > 1) std::printf("--- step %zu of %zu\n", i + 1, count);
    const auto& step = config.steps[i];
    const auto protocol = model::protocol_of(step);
    note_protocol(step, protocol, i);
    auto prepared = client::prepare(step, protocol);
    // An h2c upgrade's first request on a connection is its HTTP/1.1 form.
    if (model::asks_h2c_upgrade(step)) prepared = client::PreparedRequest(*prepared.http1_fallback);
    const auto text = model::is_grpc(step.origin.scheme)
                          ? printable_call(step, config.grpc_method)
                          : client::printable(with_jar(
                                rendered(prepared, captured, config.plan.data.get()), step, jar));
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (count > 1) std::fputc('\n', stdout);
  }
}

}  // namespace stampede::cmd
