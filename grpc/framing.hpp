// gRPC's Length-Prefixed-Message: framing a request, reading a response body's messages.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grpc/status.hpp"

namespace stampede::grpc {

/// The prefix before each message: a compressed flag byte and a 4-byte big-endian length.
inline constexpr std::size_t prefix_size = 5;

/// The largest message a gRPC client accepts by default (4 MiB, grpc-go's and grpc-java's
/// default receive limit): a bogus length must not make us wait for, or buffer, gigabytes.
inline constexpr std::size_t default_max_message = std::size_t{4} << 20;

/// `message` as one Length-Prefixed-Message, not compressed (we never send grpc-encoding).
[[nodiscard]] std::string frame(std::string_view message);

/// Reads a response body's messages as the body arrives: DATA frame boundaries have nothing to
/// do with message boundaries, so bytes are buffered until a message is whole. A broken body
/// gets the status gRPC's clients (grpc-go) report for it.
class MessageReader {
 public:
  /// `grpc_encoding` is the response's grpc-encoding ("" when absent); `max_message` the largest
  /// message length accepted.
  explicit MessageReader(std::string_view grpc_encoding = {},
                         std::size_t max_message = default_max_message);

  /// Takes the next bytes of the body.
  void feed(std::string_view bytes);

  /// The next whole message fed, or nothing: not all of it has arrived, or the body is broken.
  [[nodiscard]] std::optional<std::string> next();

  /// Why the body is broken, once next() has found it so: INTERNAL for a compressed flag without
  /// grpc-encoding or a flag other than 0 and 1, UNIMPLEMENTED for a compressed message (stampede
  /// decompresses none; grpc-go says the same of an encoding it has no decompressor for),
  /// RESOURCE_EXHAUSTED for a message longer than the limit.
  [[nodiscard]] const std::optional<Status>& error() const { return error_; }

  /// Says the body has ended: error(), or INTERNAL if it ended inside a message.
  [[nodiscard]] std::optional<Status> finish() const;

 private:
  /// The error in a message's prefix, if any.
  [[nodiscard]] std::optional<Status> check_prefix(unsigned char flag, std::size_t length) const;

  std::string encoding_;
  std::size_t max_message_;
  std::string buffer_;
  std::size_t offset_ = 0;  ///< where the next message's prefix starts in buffer_
  std::optional<Status> error_;
};

/// A whole response body read: its messages, and the error if it is broken.
struct Messages {
  std::vector<std::string> messages;  ///< those before the error, if any
  std::optional<Status> error;        ///< as MessageReader::finish() says
};

/// Reads every message of a whole body (see MessageReader).
[[nodiscard]] Messages read_messages(std::string_view body, std::string_view grpc_encoding = {},
                                     std::size_t max_message = default_max_message);

/// A unary call's answer must be exactly one message (grpc-go reports INTERNAL otherwise); only
/// an OK call is held to it, since a failed call may send none. Nothing when `count` is right.
[[nodiscard]] std::optional<Status> check_unary(const Status& status, std::size_t count);

}  // namespace stampede::grpc
