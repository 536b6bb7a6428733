// What is measured of one exchange: the fields a client's Response and the statistics' Result
// share.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/error_kind.hpp"

namespace stampede::model {

/// What a new connection speaks, as agreed with the server: HTTP/1.1 (over TLS too, and when a
/// server declined h2 by ALPN), HTTP/2 over TLS by ALPN (h2) or with prior knowledge over TCP
/// (h2c), or WebSocket (the upgrade done).
enum class Negotiated : unsigned char { none, http1, h2c, h2, websocket };

/// Number of Negotiated values, for arrays indexed by it.
inline constexpr std::size_t negotiated_count = 5;

/// Its name in reports: "http/1.1", "h2c", "h2", "websocket" (ALPN's names where there are).
constexpr std::string_view to_string(Negotiated negotiated) {
  constexpr std::array<std::string_view, negotiated_count> names{"none", "http/1.1", "h2c", "h2",
                                                                 "websocket"};
  return names[static_cast<std::size_t>(negotiated)];
}

/// Which event of its stream an exchange of an event stream (Server-Sent Events) received: the
/// stream's first, or a later one; none for every other exchange.
enum class StreamEvent : unsigned char { none, first, next };

/// The measured part of one exchange, filled by the client and kept by the statistics. A new
/// counter is one field here: Response and Result both carry it, and the worker copies it whole.
struct ExchangeRecord {
  ErrorKind error = ErrorKind::none;  ///< none: completed (the verifier may still reject it)
  int status = 0;                     ///< HTTP status, 0 when no status line arrived
  /// A gRPC call's status code (0 OK to 16 UNAUTHENTICATED) once its response ended; -1 for
  /// other requests and calls without a response.
  int grpc_status = -1;
  std::chrono::nanoseconds connect{0};  ///< connect and TLS handshake, 0 on a reused connection
  std::chrono::nanoseconds waiting{0};  ///< request written -> first response byte
  /// -m: handed to its shared connection -> its stream opened (a wait for a free stream
  /// under the server's SETTINGS_MAX_CONCURRENT_STREAMS); part of the latency.
  std::chrono::nanoseconds queueing{0};
  /// --digest: the exchange's start -> the 401 whose challenge it answered, the round trip
  /// before the answer (part of the latency); 0 when nothing was answered.
  std::chrono::nanoseconds challenge{0};
  /// -m: the streams open on its connection as its own opened, itself included; 0 when the
  /// request did not go over a shared connection.
  std::uint32_t streams_open = 0;
  std::uint64_t bytes_received = 0;  ///< header and body bytes on the wire
  std::uint64_t body_bytes = 0;      ///< body bytes (ab's "HTML transferred")
  std::uint64_t bytes_sent = 0;
  bool new_connection = false;               ///< this exchange opened a connection
  Negotiated negotiated = Negotiated::none;  ///< with new_connection: what that connection speaks
  bool keep_alive = false;                   ///< the connection stays open for the next request
  /// An event stream's event (Server-Sent Events): first or later of its stream.
  StreamEvent stream_event = StreamEvent::none;
  /// A stream's first event: from its stream's request (the connect included) to the event.
  std::chrono::nanoseconds first_event{0};
  /// A stream's first event after a reconnect with Last-Event-ID: the events its id says the
  /// server skipped (ids that are integers only).
  std::uint32_t events_lost = 0;
  /// A gRPC client-streaming call's message went out, one that is not the call's last: no
  /// answer came for it (the call's one answer comes with its last), so nothing is checked and
  /// it has no body.
  bool sent_only = false;
  /// With error verify: which of the verifier's checks() rejected it (1 the first); 0 when the
  /// verifier has no checks of its own.
  std::uint8_t failed_check = 0;
};

}  // namespace stampede::model
