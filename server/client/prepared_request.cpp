// Request serialization with Beast's message type, done once per run rather than per request.
#include "server/client/prepared_request.hpp"

#include <algorithm>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <cctype>
#include <sstream>

#include "model/http_syntax.hpp"
#include "model/protocol.hpp"
#include "model/version.hpp"
#include "server/client/h2_streams.hpp"

namespace stampede::client {

namespace http = boost::beast::http;
using Message = http::request<http::string_body>;

namespace {

bool has_header(const model::Request& request, http::field name) {
  for (const auto& [key, value] : request.headers) {
    if (http::string_to_field(key) == name) return true;
  }
  return false;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// RFC 9113 8.2.2: HTTP/2 has no connection-specific header fields; a server must treat a
/// request carrying one as malformed. TE is allowed with the value "trailers" only.
bool connection_specific(std::string_view name, std::string_view value) {
  return name == "connection" || name == "keep-alive" || name == "proxy-connection" ||
         name == "transfer-encoding" || name == "upgrade" || name == "http2-settings" ||
         (name == "te" && value != "trailers");
}

/// The HTTP/2 header list of `message`: pseudo-headers first (RFC 9113 8.3.1), Host becomes
/// `:authority`; connection-specific fields left out.
std::vector<H2Field> h2_fields(const model::Request& request,
                               const http::request<http::string_body>& message) {
  std::vector<H2Field> fields{{":method", request.method},
                              {":scheme", request.origin.secure() ? "https" : "http"},
                              {":authority", std::string(message[http::field::host])},
                              {":path", request.target}};
  if (fields[2].second.empty()) fields.erase(fields.begin() + 2);  // the user omitted Host
  for (const auto& field : message) {
    auto name = lower(field.name_string());
    if (name == "host" || connection_specific(name, field.value())) continue;
    // A request that streams has no length: its first message's would be wrong, a PROTOCOL_ERROR
    // to a server that checks it (RFC 9113 8.1.1).
    if (name == "content-length" && request.grpc_client_streaming) continue;
    fields.emplace_back(std::move(name), std::string(field.value()));
  }
  return fields;
}

/// The request as Beast's message, with the defaults and the user's headers applied.
/// Stampede's User-Agent and Accept unless the user's replace them, and an h2c upgrade's fields.
void add_defaults(Message& message, const model::Request& request) {
  if (!has_header(request, http::field::user_agent)) {
    message.set(http::field::user_agent, model::user_agent);
  }
  if (!has_header(request, http::field::accept)) message.set(http::field::accept, "*/*");
  if (model::asks_h2c_upgrade(request)) {  // as curl writes it, before the user's headers
    message.set(http::field::connection, "Upgrade, HTTP2-Settings");
    message.set(http::field::upgrade, "h2c");
    message.set("HTTP2-Settings", H2Streams::upgrade_settings());
  }
}

/// The request's headers before `to`, in their order and case, with the defaults where the
/// request puts them (Request::defaults_at: first, or where curl puts its own).
void add_headers(Message& message, const model::Request& request, std::size_t to) {
  for (std::size_t i = 0; i < to; ++i) {
    if (i == request.defaults_at) add_defaults(message, request);
    const auto& [name, value] = request.headers[i];
    if (http::string_to_field(name) == http::field::host) message.erase(http::field::host);
    message.insert(name, value);
  }
}

Message message_of(const model::Request& request) {
  Message message;
  message.method_string(request.method);
  message.target(request.target);
  const bool http1_0 = request.http_version == model::HttpVersion::http1_0;
  message.version(http1_0 ? 10 : 11);
  message.set(http::field::host, request.origin.authority());
  const auto count = request.headers.size();
  const auto body_headers_at = std::min(request.body_headers_at, count);
  add_headers(message, request, body_headers_at);
  if (request.defaults_at >= body_headers_at) add_defaults(message, request);
  if (!request.body.empty() && !has_header(request, http::field::content_type)) {
    message.set(http::field::content_type, "application/x-www-form-urlencoded");
  }
  // HTTP/1.0 closes after each response unless the client asks to keep the connection. An
  // upgrade's Connection names the upgrade: without -k the client closes after the response.
  const bool upgrade = model::asks_h2c_upgrade(request);
  if (!request.keep_alive && !http1_0 && !upgrade) message.set(http::field::connection, "close");
  if (request.keep_alive && http1_0) message.set(http::field::connection, "keep-alive");
  message.body() = request.body;
  const bool needs_length = !request.body.empty() || request.method == "POST" ||
                            request.method == "PUT" || request.method == "PATCH";
  if (needs_length) message.prepare_payload();
  for (auto i = body_headers_at; i < count; ++i) {  // curl's Content-Type and Expect
    message.insert(request.headers[i].first, request.headers[i].second);
  }
  // curl's `-H 'Accept:'`: the user asked for a default header not to be sent.
  for (const auto& name : request.omit_headers) message.erase(name);
  return message;
}

/// The upgrade request's Host and headers: stampede's User-Agent, then the user's headers as
/// given (a user Host or User-Agent replaces the default; curl's `-H 'Name:'` omits one). Beast
/// adds the upgrade's own fields.
WebSocketWire websocket_wire(const model::Request& request) {
  WebSocketWire wire;
  wire.host = request.origin.authority();
  wire.target = request.target;
  wire.headers.emplace_back("User-Agent", model::user_agent);
  for (const auto& [name, value] : request.headers) {
    const auto field = http::string_to_field(name);
    if (field == http::field::host) {
      wire.host = value;
    } else if (field == http::field::user_agent) {
      wire.headers.front().second = value;
    } else {
      wire.headers.emplace_back(name, value);
    }
  }
  std::erase_if(wire.headers, [&](const auto& header) {
    return std::any_of(
        request.omit_headers.begin(), request.omit_headers.end(),
        [&](const auto& omitted) { return model::same_field_name(omitted, header.first); });
  });
  wire.message = request.body;
  wire.binary = request.binary;
  wire.ping = request.body.empty();
  wire.max_message = request.max_message;
  return wire;
}

/// What --print-request shows of a WebSocket request: the upgrade as Beast sends it (its key is
/// random each time) and the message (a ping's seq is the user's and the message's).
std::string printable_websocket(const WebSocketWire& wire) {
  std::string text = "GET " + wire.target + " HTTP/1.1\r\nHost: " + wire.host + "\r\n";
  for (const auto& [name, value] : wire.headers) text += name + ": " + value + "\r\n";
  text +=
      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      "Sec-WebSocket-Key: (16 random bytes, base64)\r\n\r\n";
  if (wire.ping) return text + R"({"seq":"<user>_<i>","cmd":"ping","data":{}})" + "\n";
  return text + (wire.binary ? "(binary) " : "") + wire.message;
}

/// `cookies` before the request's own Cookie header in `headers` (HTTP/2's or a WebSocket
/// upgrade's), or in one of their own named `name`.
void add_cookies(std::vector<std::pair<std::string, std::string>>& headers, std::string_view name,
                 std::string_view cookies) {
  const auto own = std::find_if(headers.begin(), headers.end(), [](const auto& field) {
    return model::same_field_name(field.first, "cookie");
  });
  if (own == headers.end()) {
    headers.emplace_back(name, cookies);
  } else {
    own->second.insert(0, "; ");
    own->second.insert(0, cookies);
  }
}

}  // namespace

void set_answers_of(PreparedRequest& prepared, const model::Request* request) {
  prepared.answers_of = request;
  if (prepared.http1_fallback) {
    auto fallback = std::make_shared<PreparedRequest>(*prepared.http1_fallback);
    fallback->answers_of = request;
    prepared.http1_fallback = std::move(fallback);
  }
}

void locate_cookie(Http1Wire& wire) {
  const auto head_end = wire.bytes.find("\r\n\r\n") + 2;
  wire.cookie_in_header = false;
  wire.cookie_at = head_end;
  for (auto line = wire.bytes.find("\r\n") + 2; line < head_end;
       line = wire.bytes.find("\r\n", line) + 2) {
    constexpr std::string_view name = "cookie:";
    if (!model::same_field_name(wire.bytes.substr(line, name.size()), name)) continue;
    wire.cookie_at = wire.bytes.find_first_not_of(' ', line + name.size());
    wire.cookie_in_header = true;
    break;
  }
}

const Http1Wire& with_cookie_located(const Http1Wire& wire, Http1Wire& scratch) {
  if (wire.cookie_at != Http1Wire::unknown) return wire;
  scratch.bytes = wire.bytes;
  locate_cookie(scratch);
  return scratch;
}

const PreparedRequest& with_cookies(const PreparedRequest& base, std::string_view cookies,
                                    RequestCopy& copies) {
  if (base.grpc) return base;
  auto& copy = copies.request;
  copy = base;
  if (auto* websocket = std::get_if<WebSocketWire>(&copy.wire)) {
    add_cookies(websocket->headers, "Cookie", cookies);
  } else if (const auto* unlocated = std::get_if<Http1Wire>(&base.wire)) {
    thread_local Http1Wire scratch;  // each thread renders one request at a time
    const auto* http1 = &with_cookie_located(*unlocated, scratch);
    auto& bytes = std::get<Http1Wire>(copy.wire).bytes;
    bytes.assign(http1->bytes, 0, http1->cookie_at);
    bytes += http1->cookie_in_header ? "" : "Cookie: ";
    bytes += cookies;
    bytes += http1->cookie_in_header ? "; " : "\r\n";
    bytes.append(http1->bytes, http1->cookie_at);
  } else {
    add_cookies(std::get<Http2Wire>(copy.wire).headers, "cookie", cookies);  // lower case in h2
  }
  if (base.http1_fallback) {
    if (!copies.fallback) copies.fallback = std::make_shared<RequestCopy>();
    const auto& fallback = with_cookies(*base.http1_fallback, cookies, *copies.fallback);
    copy.http1_fallback = std::shared_ptr<const PreparedRequest>(copies.fallback, &fallback);
  }
  return copy;
}

PreparedRequest prepare(const model::Request& request, model::Protocol protocol) {
  const auto message = message_of(request);
  PreparedRequest prepared;
  prepared.max_message = request.max_message;
  if (protocol == model::Protocol::websocket) {
    prepared.wire = websocket_wire(request);
  } else if (protocol == model::Protocol::http2) {
    prepared.wire = Http2Wire{h2_fields(request, message), request.body};
    prepared.grpc = model::is_grpc(request.origin.scheme);
    prepared.grpc_server_streaming = request.grpc_server_streaming;
    prepared.grpc_client_streaming = request.grpc_client_streaming;
    // gRPC has no HTTP/1.1 to fall back to; an h2c upgrade is asked by the HTTP/1.1 form.
    if ((request.origin.secure() && !prepared.grpc) || model::asks_h2c_upgrade(request)) {
      prepared.http1_fallback =
          std::make_shared<PreparedRequest>(prepare(request, model::Protocol::http1));
    }
  } else {
    std::ostringstream out;
    out << message;
    Http1Wire wire{out.str()};
    locate_cookie(wire);
    prepared.wire = std::move(wire);
  }
  const auto& method = request.method;
  prepared.head = method == "HEAD";
  prepared.idempotent = method == "GET" || method == "HEAD" || method == "PUT" ||
                        method == "DELETE" || method == "OPTIONS" || method == "TRACE";
  prepared.decode_body = request.compressed && protocol != model::Protocol::websocket;
  prepared.timeout = request.max_time;
  prepared.connect_timeout = request.connect_timeout;
  return prepared;
}

std::string printable(const PreparedRequest& prepared) {
  if (const auto* http1 = std::get_if<Http1Wire>(&prepared.wire)) return http1->bytes;
  if (const auto* websocket = std::get_if<WebSocketWire>(&prepared.wire)) {
    return printable_websocket(*websocket);
  }
  const auto& http2 = std::get<Http2Wire>(prepared.wire);
  std::string text;
  for (const auto& [name, value] : http2.headers) text += name + ": " + value + "\n";
  return text + "\n" + http2.body;
}

}  // namespace stampede::client
