// number_of(): one word of a flag's own syntax read as a number, for --sweep, --slo, --threshold.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace stampede::cmd {

/// `text` as a number, all of it (`1.5`, `-2`, `1e3`); nullopt when it is empty or anything
/// is left over.
inline std::optional<double> number_of(std::string_view text) {
  double value = 0;
  const auto* const end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || rest != end) return std::nullopt;
  return value;
}

}  // namespace stampede::cmd
