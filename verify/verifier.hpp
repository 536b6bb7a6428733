// Pluggable response checks: a Verifier decides whether a completed response counts as a success.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
  /// The headers accept() reads (lower-case names), so clients keep them in Response::headers.
  [[nodiscard]] virtual std::vector<std::string> headers_read() const { return {}; }
  /// The checks a rejection is counted under, by name; empty for a verifier of one check.
  [[nodiscard]] virtual std::vector<std::string> checks() const { return {}; }
  /// Which of checks() rejected `response` (1 the first), for one accept() refused; 0 when
  /// there are none.
  [[nodiscard]] virtual std::uint8_t failed_check(const model::Response& /*response*/) const {
    return 0;
  }
};

/// One `-v` choice: the command line, --help and the factory all read this, so a new verifier
/// is one more entry in verifier_kinds().
struct VerifierKind {
  std::string_view name;         ///< as typed after -v
  std::string_view description;  ///< one line for --help: what counts as a success
  long long min_code;            ///< the -code values that make sense for it
  long long max_code;
  std::string_view code_range;  ///< those values in words, for --help and errors
  std::unique_ptr<Verifier> (*make)(int code);
  /// Another name it answers to: `-v http`, as go-stress-testing's help ("http: statusCode,
  /// json") leads its users to type; empty: none.
  std::string_view alias = {};
};

/// Every -v choice, the default (statusCode) first.
std::span<const VerifierKind> verifier_kinds();

/// The choice named `name` (or its alias), or nullptr.
const VerifierKind* find_verifier_kind(std::string_view name);

/// "-v statusCode or -v json": the choices, for error messages.
std::string verifier_choices();

/// Builds the verifier named by `-v` expecting `code` (-code).
/// Throws std::invalid_argument naming the choices for an unknown name.
std::unique_ptr<Verifier> make_verifier(std::string_view name, int code);

}  // namespace stampede::verify
