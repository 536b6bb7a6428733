// The gRPC verifier: a call succeeds when its gRPC status is the expected code.
#pragma once

#include <string>

#include "model/grpc_code.hpp"
#include "verify/verifier.hpp"

namespace stampede::verify {

/// Success when the call's gRPC status (grpc-status, or what gRPC maps the HTTP status to) is
/// `-code`: 0 (OK) unless told otherwise, as go-stress-testing's statusCode is 200.
class GrpcStatus final : public Verifier {
 public:
  explicit GrpcStatus(int code) : code_(code) {}
  [[nodiscard]] bool accept(const model::Response& response) const override {
    return response.grpc_status == code_;
  }
  [[nodiscard]] std::string why_rejected(const model::Response& response) const override {
    return "gRPC status " + model::grpc_code_name(response.grpc_status) +
           (response.grpc_message.empty() ? "" : " (" + response.grpc_message + ")") +
           ", not -code " + model::grpc_code_name(code_);
  }
  [[nodiscard]] bool needs_body() const override { return false; }

 private:
  int code_;
};

}  // namespace stampede::verify
