// What is measured of one exchange: the fields a client's Response and the statistics' Result
// share.
#pragma once

#include <chrono>
#include <cstdint>

#include "model/error_kind.hpp"

namespace stampede::model {

/// The measured part of one exchange, filled by the client and kept by the statistics. A new
/// counter is one field here: Response and Result both carry it, and the worker copies it whole.
struct ExchangeRecord {
  ErrorKind error = ErrorKind::none;    ///< none: completed (the verifier may still reject it)
  int status = 0;                       ///< HTTP status, 0 when no status line arrived
  std::chrono::nanoseconds connect{0};  ///< connect and TLS handshake, 0 on a reused connection
  std::chrono::nanoseconds waiting{0};  ///< request written -> first response byte
  /// -m: handed to its shared connection -> its stream opened (a wait for a free stream
  /// under the server's SETTINGS_MAX_CONCURRENT_STREAMS); part of the latency.
  std::chrono::nanoseconds queueing{0};
  /// -m: the streams open on its connection as its own opened, itself included; 0 when the
  /// request did not go over a shared connection.
  std::uint32_t streams_open = 0;
  std::uint64_t bytes_received = 0;  ///< header and body bytes on the wire
  std::uint64_t body_bytes = 0;      ///< body bytes (ab's "HTML transferred")
  std::uint64_t bytes_sent = 0;
  bool new_connection = false;  ///< this exchange opened a connection
  bool keep_alive = false;      ///< the connection stays open for the next request
};

}  // namespace stampede::model
