// go-stress-testing's json verifier: the body's top-level "code" equals the expected code.
#pragma once

#include <string>

#include "verify/verifier.hpp"

namespace stampede::verify {

/// Success when the body parses as a JSON object whose "code" (number or numeric string)
/// equals `-code`: the top-level one, or, in go-stress-testing's WebSocket reply
/// {"seq":..,"cmd":..,"response":{"code":..}}, the response's; a reply to its ping must also
/// echo the ping's "seq". A body that does not parse is a verify failure, never an exception.
class JsonCode final : public Verifier {
 public:
  explicit JsonCode(int code) : code_(code) {}
  [[nodiscard]] bool accept(const model::Response& response) const override;
  [[nodiscard]] std::string why_rejected(const model::Response& response) const override;
  [[nodiscard]] bool needs_body() const override { return true; }

 private:
  int code_;
};

}  // namespace stampede::verify
