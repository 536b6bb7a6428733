// settle_grpc_call(): gRPC's status rules (grpc/status, grpc/framing) applied to a response.
#include "server/client/grpc_outcome.hpp"

#include <optional>
#include <string_view>
#include <utility>

#include "grpc/framing.hpp"
#include "grpc/status.hpp"

namespace stampede::client {

namespace {

/// A header's value, or nothing when it did not come.
std::optional<std::string_view> present(const std::string& value) {
  if (value.empty()) return std::nullopt;
  return value;
}

}  // namespace

grpc::Status call_status_of(const model::Response& response) {
  return grpc::call_status(response.status, present(response.grpc_status_field),
                           present(response.grpc_message));
}

std::string settle_grpc_call(model::Response& response, bool server_streaming,
                             std::uint64_t max_message) {
  auto status = call_status_of(response);
  const auto body = grpc::read_messages(response.body, {}, max_message);
  // framing's one RESOURCE_EXHAUSTED: a message over the limit we gave it.
  if (body.error && body.error->code == grpc::Code::resource_exhausted) {
    response.error = model::ErrorKind::too_big;
    return "a gRPC answer's " + body.error->message + " (--max-message " +
           std::to_string(max_message) + ")";
  }
  if (body.error && status.code == grpc::Code::ok) {
    status = *body.error;
  } else if (!server_streaming) {
    if (auto wrong = grpc::check_unary(status, body.messages.size())) status = *wrong;
  }
  response.grpc_status = static_cast<int>(status.code);
  response.grpc_message = std::move(status.message);
  return {};
}

}  // namespace stampede::client
