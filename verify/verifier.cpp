// The table of -v choices and the factory that reads it: the one place a -v name is defined.
#include "verify/verifier.hpp"

#include <array>
#include <stdexcept>

#include "verify/json_code.hpp"
#include "verify/status_code.hpp"

namespace stampede::verify {

namespace {

template <typename Kind>
std::unique_ptr<Verifier> make(int code) {
  return std::make_unique<Kind>(code);
}

// statusCode: RFC 9110 15 makes a status code three digits, 100 to 599. json: go-stress-testing
// compares the body's "code" as a Go int, and API bodies often say 0 for success or use codes of
// 5 digits; -code is an int here, hence the 32-bit range.
constexpr std::array kinds{
    VerifierKind{"statusCode", "success: the HTTP status == -code (WebSocket: a reply arrived)",
                 100, 599, "100 to 599", &make<StatusCode>, "http"},
    VerifierKind{"json",
                 "success: the body's JSON \"code\" (200 or \"200\"; WebSocket: "
                 "response.code, and the ping's seq echoed) == -code",
                 -2147483648LL, 2147483647LL, "any whole number from -2147483648 to 2147483647",
                 &make<JsonCode>},
};

}  // namespace

std::span<const VerifierKind> verifier_kinds() { return kinds; }

const VerifierKind* find_verifier_kind(std::string_view name) {
  for (const auto& kind : kinds) {
    if (kind.name == name || (!kind.alias.empty() && kind.alias == name)) return &kind;
  }
  return nullptr;
}

std::string verifier_choices() {
  std::string text;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) text += i + 1 == kinds.size() ? " or " : ", ";
    text += "-v " + std::string(kinds[i].name);
  }
  return text;
}

std::unique_ptr<Verifier> make_verifier(std::string_view name, int code) {
  if (const auto* kind = find_verifier_kind(name)) return kind->make(code);
  throw std::invalid_argument("unknown verifier '" + std::string(name) + "' (use " +
                              verifier_choices() + ")");
}

}  // namespace stampede::verify
