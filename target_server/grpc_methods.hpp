// The built-in target's gRPC methods, without a .proto: which one a path names, and the one piece
// of gRPC's framing they read (each message a 1-byte flag, a 4-byte length, then its bytes).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace stampede::target_server {

/// Unary: the request's messages back unchanged.
inline constexpr std::string_view grpc_echo_path = "/stampede.Echo/Echo";
/// Unary: fails with the status its x-fail-code header names (13 without one).
inline constexpr std::string_view grpc_fail_path = "/stampede.Echo/Fail";
/// Bidirectional: each request byte back as it comes, so each message is answered as soon as it
/// is whole; the trailers once the client ends its requests.
inline constexpr std::string_view grpc_chat_path = "/stampede.Echo/Chat";
/// Client streaming: once the client ends its requests, the last of its messages back.
inline constexpr std::string_view grpc_collect_path = "/stampede.Echo/Collect";
/// Server streaming: the request's messages back x-count times, x-interval-ms apart.
inline constexpr std::string_view grpc_repeat_path = "/stampede.Echo/Repeat";
/// The most request bytes a method keeps (Chat: not yet sent back); past it, RESOURCE_EXHAUSTED.
inline constexpr std::size_t max_grpc_request = std::size_t{16} * 1024 * 1024;
/// Repeat's answers when x-count does not say (or says more than max_grpc_repeat).
inline constexpr std::size_t default_grpc_repeat = 3;
inline constexpr std::size_t max_grpc_repeat = 1'000'000;
/// The longest x-interval-ms Repeat waits between its answers.
inline constexpr std::size_t max_grpc_interval_ms = 60'000;

enum class GrpcMethod : unsigned char { none, echo, fail, chat, collect, repeat };

/// The method `path` names; none for any other path (UNIMPLEMENTED).
GrpcMethod grpc_method(std::string_view path);

/// The methods' paths, for an UNIMPLEMENTED answer and serve's help.
inline constexpr std::string_view grpc_methods_list =
    "/stampede.Echo/Echo  /stampede.Echo/Fail  /stampede.Echo/Chat  /stampede.Echo/Collect  "
    "/stampede.Echo/Repeat";

/// The last whole message of `request`, its prefix included (an empty message's when there is
/// none); nothing when the request ends inside a message.
std::optional<std::string_view> last_grpc_message(std::string_view request);

}  // namespace stampede::target_server
