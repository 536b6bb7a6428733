// gRPC calls from the command line: a grpc:// or grpcs:// request made a call of a method.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "cmd/options.hpp"
#include "model/request.hpp"
#include "verify/verifier.hpp"

namespace stampede::grpc {
class Method;
}  // namespace stampede::grpc

namespace stampede::cmd {

/// The method a gRPC run calls, kept to decode its answers (-v json) and to print its request
/// (--print-request); null when the message came from --data-file without --proto.
using GrpcMethod = std::shared_ptr<const grpc::Method>;

/// Makes `request` (a grpc:// or grpcs:// URL whose path is /package.Service/Method) that call:
/// POST with content-type application/grpc and te: trailers, grpc-timeout from -t, -H as
/// metadata, and the message framed: -data's JSON (@file too) encoded through --proto's
/// method, or --data-file's protobuf bytes. Throws UsageError, before anything is sent: no
/// --proto and no --data-file, a .proto that cannot be read or does not compile (protoc's own
/// file:line:column), a method it does not have, JSON that does not fit the message, a header
/// that cannot be metadata.
GrpcMethod make_grpc_call(const Options& options, model::Request& request);

/// The verifier of gRPC calls: -v statusCode: the call's gRPC code is -code (0, OK, by
/// default); -v json: its answer, decoded through the method, has "code" -code (200 by
/// default, as for HTTP); then the --expect-* checks, which read the answer as JSON too when
/// there is a method to decode it.
std::unique_ptr<verify::Verifier> make_grpc_verifier(const Options& options, GrpcMethod method);

/// --print-request: a gRPC request's message (its framed body) as indented JSON, or as a
/// count of bytes when there is no method to decode it.
std::string printable_grpc_message(const GrpcMethod& method, std::string_view framed_body);

}  // namespace stampede::cmd
