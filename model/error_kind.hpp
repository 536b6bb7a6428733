// What went wrong with one request: the failure taxonomy every layer reports in.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace stampede::model {

/// Why a request failed; `none` means the exchange completed (the verifier may still reject it).
enum class ErrorKind : unsigned char {
  none,
  connect,    ///< resolve/connect refused, unreachable
  timeout,    ///< -t elapsed before the response was complete
  read,       ///< reset or closed while reading the response
  write,      ///< reset or closed while sending the request
  protocol,   ///< malformed or oversized response
  tls,        ///< handshake or certificate verification failed
  verify,     ///< a response arrived but the verifier rejected it
  handshake,  ///< the server refused the WebSocket upgrade (its HTTP status is counted)
  /// the server closed the connection before the reply: a WebSocket close frame, or an HTTP/2
  /// stream it refused (REFUSED_STREAM, or left out by its GOAWAY)
  closed,
  too_big,  ///< a WebSocket message, or a gRPC answer message, over --max-message
  capture,  ///< a step's response lacked what one of its captures reads (a flow's token, an id)
  /// not sent: a captured or --data-file value would have put CR, LF or NUL in a header
  unsafe,
};

/// Number of ErrorKind values, for arrays indexed by kind.
inline constexpr std::size_t error_kind_count = 13;

/// Every failure kind (not `none`), in report order.
inline constexpr std::array<ErrorKind, error_kind_count - 1> failure_kinds{
    ErrorKind::connect,  ErrorKind::timeout, ErrorKind::read,    ErrorKind::write,
    ErrorKind::protocol, ErrorKind::tls,     ErrorKind::verify,  ErrorKind::handshake,
    ErrorKind::closed,   ErrorKind::too_big, ErrorKind::capture, ErrorKind::unsafe};

/// True for the outcomes that come with the server's HTTP status: a response (accepted, refused
/// or lacking a capture's value) and a refused WebSocket upgrade. The other failures have no
/// status to count.
constexpr bool comes_with_status(ErrorKind kind) {
  return kind == ErrorKind::none || kind == ErrorKind::verify || kind == ErrorKind::handshake ||
         kind == ErrorKind::capture;
}

/// True for the outcomes of a whole exchange, whose latency counts: a response accepted,
/// refused by a check, or lacking a capture's value.
constexpr bool whole_exchange(ErrorKind kind) {
  return kind == ErrorKind::none || kind == ErrorKind::verify || kind == ErrorKind::capture;
}

/// Lower-case name used in reports and JSON ("timeout").
constexpr std::string_view to_string(ErrorKind kind) {
  constexpr std::array<std::string_view, error_kind_count> names{
      "none",   "connect",   "timeout", "read",    "write",   "protocol", "tls",
      "verify", "handshake", "closed",  "too_big", "capture", "unsafe"};
  return names[static_cast<std::size_t>(kind)];
}

}  // namespace stampede::model
