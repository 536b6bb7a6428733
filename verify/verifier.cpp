// The verifier factory: the one place that maps a -v name to an implementation.
#include "verify/verifier.hpp"

#include <stdexcept>

#include "verify/json_code.hpp"
#include "verify/status_code.hpp"

namespace stampede::verify {

std::unique_ptr<Verifier> make_verifier(std::string_view name, int code) {
  if (name == "statusCode") return std::make_unique<StatusCode>(code);
  if (name == "json") return std::make_unique<JsonCode>(code);
  throw std::invalid_argument("unknown verifier '" + std::string(name) +
                              "' (use -v statusCode or -v json)");
}

}  // namespace stampede::verify
