// What a method, a header name and a header value may contain so that a request stays one request.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace stampede::model {

/// RFC 9110 5.6.2's token: what a method (9.1) and a field name (5.1) are made of. A space, a
/// colon or a line break in one would change what the server reads.
inline bool is_token(std::string_view text) {
  constexpr std::string_view specials = "!#$%&'*+-.^_`|~";
  return !text.empty() && std::all_of(text.begin(), text.end(), [specials](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') ||
           specials.find(c) != std::string_view::npos;
  });
}

/// The first character of a field value that RFC 9110 5.5 says a recipient must reject: CR or
/// LF (they end the field, so the rest would be read as another header or another request) or
/// NUL. Returns npos when there is none.
inline std::string_view::size_type unsafe_in_field_value(std::string_view text) {
  return text.find_first_of(std::string_view("\r\n\0", 3));
}

/// The longest field value stampede sends: Beast keeps a header's offsets in 16 bits. Servers
/// take far less (8 to 16 KiB by default), so this bounds a mistake, not a real header.
inline constexpr std::size_t max_field_value = 65533;

/// Why the header `name` with `value` cannot go ("" when it can): a value over max_field_value.
inline std::string too_long_field(std::string_view name, std::string_view value) {
  if (value.size() <= max_field_value) return {};
  return "header '" + std::string(name) + "' is " + std::to_string(value.size()) +
         " bytes long; stampede sends a header of at most " + std::to_string(max_field_value) +
         " bytes (servers commonly take 8 to 16 KiB)";
}

/// Field names compare without regard to ASCII case (RFC 9110 5.1).
inline bool same_field_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return lower(x) == lower(y);
  });
}

}  // namespace stampede::model
