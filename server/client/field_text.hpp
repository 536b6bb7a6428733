// Reading HTTP field values (RFC 9110 5.5, 5.6): optional whitespace, case-insensitive tokens,
// lists.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace stampede::client {

/// The unaligned word at `at`, in the machine's byte order (both sides of a compare load alike).
template <class Word>
Word load_word(const char* at) {
  Word word;
  std::memcpy(&word, at, sizeof word);
  return word;
}

/// Optional whitespace (OWS): a space or a horizontal tab.
inline bool is_space(char c) { return c == ' ' || c == '\t'; }

/// `text` without leading and trailing optional whitespace.
inline std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

/// ASCII case-insensitive equality with `lower`, which is lower case (letters, digits, '-').
/// Setting bit 0x20 lower-cases a letter and leaves a digit or '-' as it is, so whole words of
/// `text` are compared at once: a response's few names read this way cost a handful of
/// instructions each instead of a loop over their bytes (docs/benchmarks.md, round three).
inline bool iequals(std::string_view text, std::string_view lower) {
  const std::size_t n = text.size();
  if (n != lower.size()) return false;
  const char* a = text.data();
  const char* b = lower.data();
  if (n >= 8) {  // whole words, then the last eight bytes (which may overlap the words before)
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
      if ((load_word<std::uint64_t>(a + i) | 0x2020202020202020U) !=
          load_word<std::uint64_t>(b + i)) {
        return false;
      }
    }
    return (load_word<std::uint64_t>(a + n - 8) | 0x2020202020202020U) ==
           load_word<std::uint64_t>(b + n - 8);
  }
  if (n >= 4) {
    return (load_word<std::uint32_t>(a) | 0x20202020U) == load_word<std::uint32_t>(b) &&
           (load_word<std::uint32_t>(a + n - 4) | 0x20202020U) ==
               load_word<std::uint32_t>(b + n - 4);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if ((a[i] | 0x20) != b[i]) return false;
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
