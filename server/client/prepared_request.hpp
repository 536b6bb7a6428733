// A request serialized once, in the form its protocol sends, so a user's loop reuses it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "model/protocol.hpp"
#include "model/request.hpp"

namespace stampede::client {

/// One HTTP/2 header field, as it goes into nghttp2's header list.
using H2Field = std::pair<std::string, std::string>;

/// HTTP/1.1: request line, headers and body, written as they are.
struct Http1Wire {
  std::string bytes;
  /// Where a user's cookies go (with_cookies()): into the request's own Cookie header, whose
  /// value starts at this offset (`cookie_in_header`), or in a header of their own inserted
  /// here, at the end of the head. `unknown` in a rendered copy: found when needed.
  std::size_t cookie_at = unknown;
  bool cookie_in_header = false;
  static constexpr std::size_t unknown = static_cast<std::size_t>(-1);
};

/// HTTP/2: `:method`, `:scheme`, `:authority`, `:path`, then the HTTP/1.1 headers lower-cased
/// without the connection-specific ones (RFC 9113 8.2.2) and without Host; the body goes in
/// DATA frames.
struct Http2Wire {
  std::vector<H2Field> headers;
  std::string body;
};

/// WebSocket: the upgrade request's parts (Beast writes it) and the message each exchange sends.
struct WebSocketWire {
  std::string host;    ///< the Host header: the origin's authority
  std::string target;  ///< path and query of the upgrade request
  std::vector<std::pair<std::string, std::string>> headers;  ///< user headers for the upgrade
  std::string message;  ///< what each exchange sends, unless `ping`
  bool binary = false;  ///< a binary frame, else text
  /// No message was given: each exchange sends go-stress-testing's ping,
  /// {"seq":"<user>_<i>","cmd":"ping","data":{}}, with its own seq.
  bool ping = false;
  std::uint64_t max_message = 0;  ///< the largest message accepted
};

/// A request in its protocol's form, plus what the exchange must know about it.
struct PreparedRequest {
  std::variant<Http1Wire, Http2Wire, WebSocketWire> wire;  ///< one alternative per protocol
  /// HTTP/2 over TLS: the HTTP/1.1 form, sent when the server picks http/1.1 by ALPN (none for
  /// gRPC, which is HTTP/2 only). HTTP/2 by h2c upgrade: the HTTP/1.1 form asking to switch,
  /// sent on each new connection and, as curl does, on one the server kept HTTP/1.1.
  std::shared_ptr<const PreparedRequest> http1_fallback;
  /// A gRPC call (grpc://, grpcs://): its outcome is the grpc-status of its trailers.
  bool grpc = false;
  /// A gRPC call whose method streams its answer: any number of messages is whole.
  bool grpc_server_streaming = false;
  /// A gRPC call whose method takes a stream of requests (bidirectional, with --stream): each
  /// exchange sends its message on the call.
  bool grpc_client_streaming = false;
  /// The longest answer message taken (--max-message): a gRPC call's message, an event
  /// stream's line; a longer one fails as too_big, a limit of stampede's own.
  std::uint64_t max_message = 0;
  bool head = false;       ///< HEAD: the response has no body whatever its Content-Length says
  bool idempotent = true;  ///< safe to resend when a reused connection turns out closed
  /// The request this was prepared from, for what may follow its response within the exchange:
  /// -redirect's hops, --digest's answer to a 401 (null: neither; the response is the result).
  /// Set by its owner, which keeps that request alive as long as this.
  const model::Request* answers_of = nullptr;
  /// --compressed: the body is decoded (Content-Encoding undone) before a verifier reads it.
  bool decode_body = false;
  /// This request's own limit for the whole exchange (curl's --max-time); 0: the run's -t.
  std::chrono::nanoseconds timeout{0};
  /// Limit for connecting and the TLS handshake (curl's --connect-timeout); 0: none of its own.
  std::chrono::nanoseconds connect_timeout{0};
};

/// Serializes `request` for `protocol`. The headers are those of HTTP/1.1: Host, User-Agent,
/// Accept, Content-Type (for a body, unless given), Content-Length and, without keep-alive,
/// `Connection: close`; user headers replace the defaults of the same name; `omit_headers` are
/// not sent at all. HTTP/2 carries the same fields in its own form.
PreparedRequest prepare(const model::Request& request, model::Protocol protocol);

/// Makes `prepared` (and its HTTP/1.1 form, copied) answer for `request`: what may follow its
/// response in the exchange (redirect hops, --digest's answer) is built from `request`, which
/// its owner keeps alive as long as `prepared`.
void set_answers_of(PreparedRequest& prepared, const model::Request* request);

/// Finds where a user's cookies go in `wire`'s bytes (its cookie_at and cookie_in_header).
void locate_cookie(Http1Wire& wire);

/// `wire` with its cookie_at known: itself, or `scratch` (when it was unknown).
const Http1Wire& with_cookie_located(const Http1Wire& wire, Http1Wire& scratch);

/// A user's copy of a request with its variables or cookies in it, whose buffers are reused
/// from one request to the next.
struct RequestCopy {
  PreparedRequest request;
  std::shared_ptr<RequestCopy> fallback;  ///< where the copy's http1_fallback is, if it has one
};

/// `base` with a user's `cookies` (a Cookie header's value, not empty) sent before the
/// request's own cookies (curl sends its jar's before -b's), written into `copies`, whose
/// buffers are reused; a WebSocket request carries them in its upgrade. gRPC calls carry no
/// cookies: `base` itself comes back.
const PreparedRequest& with_cookies(const PreparedRequest& base, std::string_view cookies,
                                    RequestCopy& copies);

/// The request as a person reads it: HTTP/1.1's bytes; HTTP/2's header list as `nghttp -v`
/// shows it (on the wire it is HPACK), a blank line and the body; WebSocket's upgrade request
/// (Beast adds the Upgrade, Connection and Sec-WebSocket-* fields), a blank line and the message.
std::string printable(const PreparedRequest& prepared);

}  // namespace stampede::client
