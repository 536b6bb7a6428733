// The default verifier: the HTTP status equals the expected code.
#pragma once

#include <string>

#include "verify/verifier.hpp"

namespace stampede::verify {

/// Success when the status line's code equals `-code` (go-stress-testing's statusCode). A
/// WebSocket reply has no status: that it arrived is the success, as go-stress-testing counts a
/// WebSocket message without -v json.
class StatusCode final : public Verifier {
 public:
  explicit StatusCode(int code) : code_(code) {}
  [[nodiscard]] bool accept(const model::Response& response) const override {
    return response.websocket || response.status == code_;
  }
  [[nodiscard]] std::string why_rejected(const model::Response& response) const override {
    return "status " + std::to_string(response.status) + ", not -code " + std::to_string(code_);
  }
  [[nodiscard]] bool needs_body() const override { return false; }

 private:
  int code_;
};

}  // namespace stampede::verify
