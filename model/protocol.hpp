// Which protocol a request goes over: the one choice every client factory switches on.
#pragma once

#include <algorithm>
#include <cctype>
#include <string_view>

#include "model/http_syntax.hpp"
#include "model/request.hpp"

namespace stampede::model {

/// The protocol a request is sent with (a gRPC call is an HTTP/2 exchange).
enum class Protocol : unsigned char {
  http1,      ///< HTTP/1.1 (RFC 9112)
  http2,      ///< HTTP/2 (RFC 9113): h2c with prior knowledge, or ALPN "h2" over TLS
  websocket,  ///< WebSocket (RFC 6455): an HTTP/1.1 upgrade, then messages both ways
};

/// The protocol's name in saved runs and the JSON report: "http1", "http2", "websocket".
inline std::string_view protocol_name(Protocol protocol) {
  switch (protocol) {
    case Protocol::http2:
      return "http2";
    case Protocol::websocket:
      return "websocket";
    default:
      return "http1";
  }
}

/// The protocol named `name` (protocol_name's), HTTP/1.1 for any other.
inline Protocol protocol_named(std::string_view name) {
  return name == "http2"       ? Protocol::http2
         : name == "websocket" ? Protocol::websocket
                               : Protocol::http1;
}

/// curl's --http2 on http://: each new connection's first request goes as HTTP/1.1 asking to
/// switch (`Connection: Upgrade, HTTP2-Settings`, `Upgrade: h2c`); a server that answers 101
/// Switching Protocols sends that request's response as HTTP/2 on stream 1, and the connection
/// speaks HTTP/2 from then on; any other answer is the response, and the connection stays HTTP/1.1.
inline bool asks_h2c_upgrade(const Request& request) {
  return request.origin.scheme == Scheme::http && request.http_version == HttpVersion::http2;
}

/// A request for an event stream (Server-Sent Events): its Accept header names
/// text/event-stream (--sse sets it), so its response is read event by event.
inline bool asks_event_stream(const Request& request) {
  constexpr std::string_view type = "text/event-stream";
  return std::any_of(request.headers.begin(), request.headers.end(), [&](const auto& header) {
    if (!same_field_name(header.first, "accept")) return false;
    const std::string_view value = header.second;
    return std::search(value.begin(), value.end(), type.begin(), type.end(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           }) != value.end();
  });
}

/// The response is read as a stream, an exchange each of its units: an event stream's events, or
/// with --stream a gRPC call's messages or a body's chunks.
inline bool reads_stream(const Request& request) {
  return request.stream || asks_event_stream(request);
}

/// What each of a stream's units is, as reports name it: "event", "message" (a gRPC call's
/// answer), "sent message" (a client-streaming call's request), or "chunk"; empty when the
/// response is read whole.
inline std::string_view stream_unit(const Request& request) {
  if (asks_event_stream(request)) return "event";
  if (!request.stream) return "";
  if (!is_grpc(request.origin.scheme)) return "chunk";
  return request.grpc_client_streaming && !request.grpc_server_streaming ? "sent message"
                                                                         : "message";
}

/// WebSocket for ws:// and wss://; HTTP/2 for grpc:// (h2c) and grpcs:// (ALPN h2), and when it
/// is asked for: h2c with prior knowledge or by upgrade, or over TLS (where the server may still
/// pick HTTP/1.1 by ALPN, or over http:// decline the upgrade); else HTTP/1.1.
inline Protocol protocol_of(const Request& request) {
  if (is_websocket(request.origin.scheme)) return Protocol::websocket;
  if (is_grpc(request.origin.scheme)) return Protocol::http2;
  const bool http2 = request.http_version == HttpVersion::http2_prior_knowledge ||
                     request.http_version == HttpVersion::http2;
  return http2 ? Protocol::http2 : Protocol::http1;
}

}  // namespace stampede::model
