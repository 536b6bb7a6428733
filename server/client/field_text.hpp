// Reading HTTP field values (RFC 9110 5.5, 5.6): optional whitespace, case-insensitive tokens,
// lists.
#pragma once

#include <string_view>

namespace stampede::client {

/// Optional whitespace (OWS): a space or a horizontal tab.
inline bool is_space(char c) { return c == ' ' || c == '\t'; }

/// `text` without leading and trailing optional whitespace.
inline std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

/// ASCII case-insensitive equality with `lower`, which is lower case (letters, digits, '-').
inline bool iequals(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((text[i] | 0x20) != lower[i]) return false;
  }
  return true;
}

/// Calls `each` with every trimmed, non-empty element of a comma-separated list.
template <class Each>
void for_each_token(std::string_view list, Each each) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto token = trim(list.substr(0, comma));
    if (!token.empty()) each(token);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace stampede::client
