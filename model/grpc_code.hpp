// gRPC's status codes by name: the vocabulary the reports count gRPC calls in.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace stampede::model {

/// gRPC's status code names (doc/statuscodes.md), indexed by code, 0 (OK) to 16.
inline constexpr std::array<std::string_view, 17> grpc_code_names{
    "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
    "DATA_LOSS", "UNAUTHENTICATED"};

/// Code `code`'s name ("UNAVAILABLE"), or its number for one outside 0..16.
inline std::string grpc_code_name(int code) {
  if (code < 0 || static_cast<std::size_t>(code) >= grpc_code_names.size()) {
    return std::to_string(code);
  }
  return std::string(grpc_code_names[static_cast<std::size_t>(code)]);
}

}  // namespace stampede::model
