// One request as -g writes it: the only record that keeps every request, so it is kept only
// when asked for.
#pragma once

#include <chrono>
#include <cstdint>

#include "model/error_kind.hpp"

namespace stampede::statistics {

/// When a request started and how long its phases took (ab's gnuplot columns), its outcome.
struct RequestLine {
  std::chrono::nanoseconds started{0};  ///< since the run's start (under --rate: when it was due)
  std::chrono::nanoseconds connect{0};  ///< 0 on a reused connection
  std::chrono::nanoseconds waiting{0};  ///< request written -> first response byte
  std::chrono::nanoseconds latency{0};  ///< the whole exchange, as the histogram has it
  int status = 0;                       ///< 0 when no status line arrived
  model::ErrorKind error = model::ErrorKind::none;
};

}  // namespace stampede::statistics
