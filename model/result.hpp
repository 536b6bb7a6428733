// One request's measured outcome, as the worker records it into the statistics.
#pragma once

#include <chrono>
#include <string_view>

#include "model/exchange_record.hpp"

namespace stampede::model {

/// What the statistics keep of one request: no body, no headers, fixed size.
struct Result : ExchangeRecord {
  /// The whole exchange, connect included; under --rate (scheduled), from when the request
  /// was meant to start, so a server's stall shows in every request it held up.
  std::chrono::nanoseconds latency{0};
  /// --rate: the exchange alone (the uncorrected latency), and the generator's own delay in
  /// starting the request once a user was free for it.
  std::chrono::nanoseconds service{0};
  std::chrono::nanoseconds lag{0};
  bool scheduled = false;   ///< it started on --rate's schedule (service and lag are set)
  std::string_view server;  ///< the Server header; valid only while the Result is being added

  /// True when the request counts as a success.
  [[nodiscard]] bool ok() const { return error == ErrorKind::none; }
};

}  // namespace stampede::model
