// with_expectations(): each flag's checks built in a fixed order, their errors as usage errors.
#include "cmd/expect_flags.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "verify/expectations.hpp"

namespace stampede::cmd {

std::unique_ptr<verify::Verifier> with_expectations(const Options& options,
                                                    std::unique_ptr<verify::Verifier> base,
                                                    bool base_is_status) {
  const bool any = !options.expect_status.empty() || !options.expect_json.empty() ||
                   !options.expect_body.empty() || !options.expect_header.empty() ||
                   options.expect_size != -1;
  if (!any) return base;
  std::vector<std::unique_ptr<verify::Check>> checks;
  try {
    for (const auto& list : options.expect_status) checks.push_back(verify::expect_status(list));
    for (const auto& text : options.expect_json) checks.push_back(verify::expect_json(text));
    for (const auto& regex : options.expect_body) checks.push_back(verify::expect_body(regex));
    for (const auto& text : options.expect_header) checks.push_back(verify::expect_header(text));
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  if (options.expect_size < -1) {
    throw UsageError("--expect-size is a number of bytes, 0 or more (the body's, decoded)");
  }
  if (options.expect_size >= 0) {
    checks.push_back(verify::expect_size(static_cast<std::uint64_t>(options.expect_size)));
  }
  // --expect-status says which statuses pass: the default status check would contradict it.
  const bool status_replaced = !options.expect_status.empty() && base_is_status;
  auto name = "-v " + options.verify + " -code " + std::to_string(options.code);
  return verify::expectations(status_replaced ? nullptr : std::move(base), std::move(name),
                              std::move(checks));
}

}  // namespace stampede::cmd
