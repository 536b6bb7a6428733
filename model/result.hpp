// One request's measured outcome, as the worker records it into the statistics.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

#include "model/error_kind.hpp"

namespace stampede::model {

/// What the statistics keep of one request: no body, no headers, fixed size.
struct Result {
  ErrorKind error = ErrorKind::none;    ///< none: succeeded
  int status = 0;                       ///< 0 when no status line arrived
  std::chrono::nanoseconds latency{0};  ///< the whole exchange, connect included
  std::chrono::nanoseconds connect{0};  ///< 0 on a reused connection
  std::chrono::nanoseconds waiting{0};  ///< request written -> first response byte
  std::uint64_t bytes_received = 0;
  std::uint64_t body_bytes = 0;
  std::uint64_t bytes_sent = 0;
  bool new_connection = false;
  bool keep_alive = false;  ///< the response kept the connection open (ab's Keep-Alive requests)
  std::string_view server;  ///< the Server header; valid only while the Result is being added

  /// True when the request counts as a success.
  [[nodiscard]] bool ok() const { return error == ErrorKind::none; }
};

}  // namespace stampede::model
