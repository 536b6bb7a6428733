// Test helper shared by the reporter tests: a Result with just the fields they vary.
#pragma once

#include <chrono>

#include "model/result.hpp"

namespace stampede::report {

/// A Result with this latency, error kind and status; everything else zero.
inline model::Result result(std::chrono::nanoseconds latency, model::ErrorKind error, int status) {
  model::Result r;
  r.error = error;
  r.status = status;
  r.latency = latency;
  return r;
}

}  // namespace stampede::report
