// Test helpers shared by the reporter tests: a Result with just the fields they vary, and a
// report's text searched.
#pragma once

#include <chrono>
#include <string>

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

/// Whether `text` holds `part`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace stampede::report
