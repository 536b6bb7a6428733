// grpc_method() and last_grpc_message(): the built-in target's gRPC methods by path, and the
// walk over a request's length-prefixed messages that Collect needs.
#include "target_server/grpc_methods.hpp"

#include <array>
#include <cstdint>
#include <utility>

namespace stampede::target_server {

namespace {

/// A message's prefix: the compressed flag, then its length (big-endian).
constexpr std::size_t prefix_size = 5;
/// An empty message: what Collect answers to a call that sent none.
constexpr std::string_view empty_message{"\0\0\0\0\0", prefix_size};

}  // namespace

GrpcMethod grpc_method(std::string_view path) {
  static constexpr std::array<std::pair<std::string_view, GrpcMethod>, 5> methods{{
      {grpc_echo_path, GrpcMethod::echo},
      {grpc_fail_path, GrpcMethod::fail},
      {grpc_chat_path, GrpcMethod::chat},
      {grpc_collect_path, GrpcMethod::collect},
      {grpc_repeat_path, GrpcMethod::repeat},
  }};
  for (const auto& [name, method] : methods) {
    if (path == name) return method;
  }
  return GrpcMethod::none;
}

std::optional<std::string_view> last_grpc_message(std::string_view request) {
  std::string_view last = empty_message;
  while (!request.empty()) {
    if (request.size() < prefix_size) return std::nullopt;
    std::uint64_t length = 0;
    for (std::size_t i = 1; i < prefix_size; ++i) {
      length = (length << 8) | static_cast<unsigned char>(request[i]);
    }
    if (request.size() - prefix_size < length) return std::nullopt;
    last = request.substr(0, prefix_size + length);
    request.remove_prefix(last.size());
  }
  return last;
}

}  // namespace stampede::target_server
