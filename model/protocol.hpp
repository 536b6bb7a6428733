// Which protocol a request goes over: the one choice every client factory switches on.
#pragma once

#include "model/request.hpp"

namespace stampede::model {

/// The protocol a request is sent with (a gRPC call is an HTTP/2 exchange).
enum class Protocol : unsigned char {
  http1,      ///< HTTP/1.1 (RFC 9112)
  http2,      ///< HTTP/2 (RFC 9113): h2c with prior knowledge, or ALPN "h2" over TLS
  websocket,  ///< WebSocket (RFC 6455): an HTTP/1.1 upgrade, then messages both ways
};

/// WebSocket for ws:// and wss://; HTTP/2 for grpc:// (h2c) and grpcs:// (ALPN h2), and when it
/// is asked for and sent without an upgrade: h2c with prior knowledge, or over TLS (where the
/// server may still pick HTTP/1.1 by ALPN); else HTTP/1.1.
inline Protocol protocol_of(const Request& request) {
  if (is_websocket(request.origin.scheme)) return Protocol::websocket;
  if (is_grpc(request.origin.scheme)) return Protocol::http2;
  const bool http2 =
      request.http_version == HttpVersion::http2_prior_knowledge ||
      (request.origin.scheme == Scheme::https && request.http_version == HttpVersion::http2);
  return http2 ? Protocol::http2 : Protocol::http1;
}

}  // namespace stampede::model
