// What went wrong with one request: the failure taxonomy every layer reports in.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace stampede::model {

/// Why a request failed; `none` means the exchange completed (the verifier may still reject it).
enum class ErrorKind : unsigned char {
  none,
  connect,   ///< resolve/connect refused, unreachable
  timeout,   ///< -t elapsed before the response was complete
  read,      ///< reset or closed while reading the response
  write,     ///< reset or closed while sending the request
  protocol,  ///< malformed or oversized response
  tls,       ///< handshake or certificate verification failed
  verify,    ///< a response arrived but the verifier rejected it
};

/// Number of ErrorKind values, for arrays indexed by kind.
inline constexpr std::size_t error_kind_count = 8;

/// Every failure kind (not `none`), in report order.
inline constexpr std::array<ErrorKind, error_kind_count - 1> failure_kinds{
    ErrorKind::connect,  ErrorKind::timeout, ErrorKind::read,  ErrorKind::write,
    ErrorKind::protocol, ErrorKind::tls,     ErrorKind::verify};

/// Lower-case name used in reports and JSON ("timeout").
constexpr std::string_view to_string(ErrorKind kind) {
  constexpr std::array<std::string_view, error_kind_count> names{
      "none", "connect", "timeout", "read", "write", "protocol", "tls", "verify"};
  return names[static_cast<std::size_t>(kind)];
}

}  // namespace stampede::model
