// A finished gRPC call's status, as a gRPC client would report it.
#pragma once

#include <cstdint>
#include <string>

#include "grpc/status.hpp"
#include "model/response.hpp"

namespace stampede::client {

/// The status of a finished call from its response's HTTP status, grpc-status and grpc-message
/// (grpc::call_status()'s rules).
grpc::Status call_status_of(const model::Response& response);

/// Sets `response.grpc_status` (and grpc_message, decoded) for a gRPC call whose exchange
/// completed: grpc-status from the trailers (or a Trailers-Only response's headers), else the
/// code gRPC maps the HTTP status to; a body that is not whole messages, or a unary call's OK
/// answer that is not exactly one message, is INTERNAL (as grpc-go says). The body is kept.
/// A message longer than `max_message` fails the call as ErrorKind::too_big, with no status:
/// the limit is stampede's, not the server's answer. Returns that failure's description.
std::string settle_grpc_call(model::Response& response, bool server_streaming,
                             std::uint64_t max_message);

}  // namespace stampede::client
