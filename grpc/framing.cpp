// The 5-byte message prefix, written and read, with gRPC's status for each way a body breaks.
#include "grpc/framing.hpp"

#include <cstdint>

namespace stampede::grpc {

namespace {

/// The length in the prefix that starts at `offset` (the caller has its 5 bytes).
std::size_t length_at(std::string_view buffer, std::size_t offset) {
  std::size_t length = 0;
  for (std::size_t i = 1; i < prefix_size; ++i) {
    length = length << 8 | static_cast<unsigned char>(buffer[offset + i]);
  }
  return length;
}

}  // namespace

std::string frame(std::string_view message) {
  const auto length = static_cast<std::uint32_t>(message.size());
  std::string framed;
  framed.reserve(prefix_size + message.size());
  framed += '\0';
  for (int shift = 24; shift >= 0; shift -= 8) framed += static_cast<char>(length >> shift);
  framed += message;
  return framed;
}

MessageReader::MessageReader(std::string_view grpc_encoding, std::size_t max_message)
    : encoding_(grpc_encoding == "identity" ? std::string_view() : grpc_encoding),
      max_message_(max_message) {}

void MessageReader::feed(std::string_view bytes) {
  buffer_.erase(0, offset_);  // what next() has read: at most one message's bytes stay
  offset_ = 0;
  buffer_ += bytes;
}

std::optional<std::string> MessageReader::next() {
  if (error_ || buffer_.size() - offset_ < prefix_size) return std::nullopt;
  const std::size_t length = length_at(buffer_, offset_);
  error_ = check_prefix(static_cast<unsigned char>(buffer_[offset_]), length);
  if (error_) return std::nullopt;
  if (buffer_.size() - offset_ - prefix_size < length) return std::nullopt;
  std::string message = buffer_.substr(offset_ + prefix_size, length);
  offset_ += prefix_size + length;
  return message;
}

std::optional<Status> MessageReader::check_prefix(unsigned char flag, std::size_t length) const {
  if (flag > 1) {
    return Status{Code::internal, "message with compressed flag " + std::to_string(flag)};
  }
  if (flag == 1 && encoding_.empty()) {
    return Status{Code::internal, "compressed message in a response without grpc-encoding"};
  }
  if (flag == 1) {
    return Status{Code::unimplemented, "compressed message (grpc-encoding " + encoding_ +
                                           "), which stampede cannot read"};
  }
  if (length > max_message_) {
    return Status{Code::resource_exhausted, "message of " + std::to_string(length) +
                                                " bytes, more than the limit of " +
                                                std::to_string(max_message_)};
  }
  return std::nullopt;
}

std::optional<Status> MessageReader::finish() const {
  const std::size_t left = buffer_.size() - offset_;
  if (error_ || left == 0) return error_;
  if (left < prefix_size) {
    return Status{Code::internal, "the response ended inside a message's prefix (" +
                                      std::to_string(left) + " of its 5 bytes)"};
  }
  return Status{Code::internal, "the response ended inside a message (" +
                                    std::to_string(left - prefix_size) + " of its " +
                                    std::to_string(length_at(buffer_, offset_)) + " bytes)"};
}

Messages read_messages(std::string_view body, std::string_view grpc_encoding,
                       std::size_t max_message) {
  MessageReader reader(grpc_encoding, max_message);
  reader.feed(body);
  Messages read;
  while (auto message = reader.next()) read.messages.push_back(std::move(*message));
  read.error = reader.finish();
  return read;
}

std::optional<Status> check_unary(const Status& status, std::size_t count) {
  if (status.code != Code::ok || count == 1) return std::nullopt;
  return Status{Code::internal,
                "a unary call answered OK with " + std::to_string(count) + " messages, not one"};
}

}  // namespace stampede::grpc
