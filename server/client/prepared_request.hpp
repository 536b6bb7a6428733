// A request serialized once into wire bytes, so a user's loop writes the same buffer every time.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "model/request.hpp"

namespace stampede::client {

/// One HTTP/2 header field, as it goes into nghttp2's header list.
using H2Field = std::pair<std::string, std::string>;

/// The HTTP/1.1 bytes of one request and its HTTP/2 form, plus what the response parser must
/// know about it.
struct PreparedRequest {
  std::string bytes;  ///< request line, headers and body
  /// HTTP/2: `:method`, `:scheme`, `:authority`, `:path`, then the HTTP/1.1 headers lower-cased
  /// without the connection-specific ones (RFC 9113 8.2.2) and without Host.
  std::vector<H2Field> h2_headers;
  std::string body;        ///< HTTP/2 sends the body in DATA frames, apart from the headers
  bool head = false;       ///< HEAD: the response has no body whatever its Content-Length says
  bool idempotent = true;  ///< safe to resend when a reused connection turns out closed
  /// -redirect: the request the redirects start from (null: a 3xx is the result). Set by its
  /// owner, which keeps that request alive as long as this.
  const model::Request* follow_redirects_of = nullptr;
  /// --compressed: the body is decoded (Content-Encoding undone) before a verifier reads it.
  bool decode_body = false;
  /// This request's own limit for the whole exchange (curl's --max-time); 0: the run's -t.
  std::chrono::nanoseconds timeout{0};
  /// Limit for connecting and the TLS handshake (curl's --connect-timeout); 0: none of its own.
  std::chrono::nanoseconds connect_timeout{0};
};

/// Serializes `request` as HTTP/1.1 with Host, User-Agent, Accept, Content-Type (for a body,
/// unless given), Content-Length and, without keep-alive, `Connection: close`. User headers
/// replace the defaults of the same name; `omit_headers` are not sent at all. The HTTP/2 form
/// carries the same headers.
PreparedRequest prepare(const model::Request& request);

}  // namespace stampede::client
