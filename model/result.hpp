// One request's measured outcome, as the worker records it into the statistics.
#pragma once

#include <chrono>
#include <string_view>

#include "model/exchange_record.hpp"

namespace stampede::model {

/// What the statistics keep of one request: no body, no headers, fixed size.
struct Result : ExchangeRecord {
  std::chrono::nanoseconds latency{0};  ///< the whole exchange, connect included
  std::string_view server;  ///< the Server header; valid only while the Result is being added

  /// True when the request counts as a success.
  [[nodiscard]] bool ok() const { return error == ErrorKind::none; }
};

}  // namespace stampede::model
