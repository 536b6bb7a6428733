// Pluggable response checks: a Verifier decides whether a completed response counts as a success.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "model/response.hpp"

namespace stampede::verify {

/// Decides success for one response. Pure and thread-safe: one instance serves every user.
class Verifier {
 public:
  virtual ~Verifier() = default;
  /// True when the response counts as a success.
  [[nodiscard]] virtual bool accept(const model::Response& response) const = 0;
  /// Why accept() said no to `response`, for the one warning naming the first rejection.
  [[nodiscard]] virtual std::string why_rejected(const model::Response& response) const = 0;
  /// True when accept() reads the body, so clients must keep it.
  [[nodiscard]] virtual bool needs_body() const = 0;
};

/// Builds the verifier named by `-v` ("statusCode" or "json") expecting `code` (-code).
/// Throws std::invalid_argument naming the choices for an unknown name.
std::unique_ptr<Verifier> make_verifier(std::string_view name, int code);

}  // namespace stampede::verify
