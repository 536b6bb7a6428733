// What came back: one response as a client saw it, reused across a user's requests.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "model/error_kind.hpp"

namespace stampede::model {

/// One exchange's outcome. A worker owns one and hands it to its client each time, so the
/// strings keep their capacity and a steady-state request allocates nothing.
struct Response {
  ErrorKind error = ErrorKind::none;
  int status = 0;                    ///< HTTP status, 0 when no status line arrived
  std::string body;                  ///< kept only when the verifier needs it
  std::string server;                ///< the Server header, for the report
  std::string location;              ///< the Location header (followed with -redirect)
  std::string content_encoding;      ///< the Content-Encoding header (decoded with --compressed)
  std::uint64_t bytes_received = 0;  ///< header and body bytes on the wire
  std::uint64_t body_bytes = 0;      ///< body bytes (ab's "HTML transferred")
  std::uint64_t bytes_sent = 0;
  bool new_connection = false;          ///< this exchange opened a connection
  bool keep_alive = false;              ///< the connection stays open for the next request
  std::chrono::nanoseconds connect{0};  ///< connect and TLS handshake, 0 on a reused connection
  std::chrono::nanoseconds waiting{0};  ///< request written -> first response byte

  /// Forget the previous exchange but keep the buffers' capacity.
  void clear() {
    error = ErrorKind::none;
    status = 0;
    body.clear();
    server.clear();
    location.clear();
    content_encoding.clear();
    bytes_received = body_bytes = bytes_sent = 0;
    new_connection = keep_alive = false;
    connect = waiting = std::chrono::nanoseconds{0};
  }
};

}  // namespace stampede::model
