// Headers: -H parsing (values, empty values, removals, @file) and curl's own defaults after it.
#include "curl/headers.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include "curl/files.hpp"
#include "model/http_syntax.hpp"

namespace stampede::curl {

namespace {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

/// curl sends `Bad Name: x` as typed, which is no field name (RFC 9110 5.1): servers refuse
/// such a line or drop it.
std::string checked_name(std::string name, const Argument& argument) {
  if (!model::is_token(name)) {
    throw ParseError(argument.where, "bad header name '" + name + "' (a header name is one word)");
  }
  return name;
}

/// Content-Length and Transfer-Encoding frame the body, which stampede frames itself from what
/// it sends (so a curl file's `Content-Length: 5` over a 10-byte body cannot cut it short): true,
/// with a warning at the header's place, for one of them.
bool framing_header(std::string_view name, const Argument& argument,
                    std::vector<Warning>& warnings) {
  if (!model::same_field_name(name, "Content-Length") &&
      !model::same_field_name(name, "Transfer-Encoding")) {
    return false;
  }
  warnings.push_back({argument.where, "header '" + argument.value +
                                          "' is not sent: stampede frames the body itself "
                                          "(its Content-Length is the body's size)"});
  return true;
}

}  // namespace

Headers::Headers(const std::vector<Argument>& arguments, const Files& files,
                 std::vector<Warning>& warnings) {
  for (const auto& argument : arguments) {
    if (!argument.value.starts_with("@")) {
      read(argument, warnings);
      continue;
    }
    std::istringstream lines(files.read(argument.value.substr(1), argument.where));
    for (std::string line; std::getline(lines, line);) {
      if (!trim(line).empty()) read({line, argument.where}, warnings);
    }
  }
}

void Headers::read(const Argument& argument, std::vector<Warning>& warnings) {
  const auto& text = argument.value;
  // curl would send a line break as is, which splits one header into two (or a request into
  // two), and a NUL cuts it: refused rather than replayed.
  if (const auto bad = model::unsafe_in_field_value(text); bad != std::string::npos) {
    throw ParseError(argument.where, "header '" + trim(text.substr(0, bad)) + "...' contains " +
                                         (text[bad] == '\0' ? "a NUL byte" : "a line break"));
  }
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    const auto name = trim(text);
    if (name.size() > 1 && name.ends_with(';')) {
      auto bare = checked_name(name.substr(0, name.size() - 1), argument);
      if (!framing_header(bare, argument, warnings)) custom_.emplace_back(std::move(bare), "");
    } else {
      warnings.push_back({argument.where, "header '" + text +
                                              "' has no ':' and is not sent "
                                              "(as in curl; use 'Name;' for an empty value)"});
    }
    return;
  }
  const auto name = checked_name(trim(std::string_view(text).substr(0, colon)), argument);
  const auto value = trim(std::string_view(text).substr(colon + 1));
  if (const auto why = model::too_long_field(name, value); !why.empty()) {
    throw ParseError(argument.where, why);
  }
  if (framing_header(name, argument, warnings)) return;
  if (value.empty()) {
    omitted_.push_back(name);
  } else {
    custom_.emplace_back(name, value);
  }
}

namespace {

/// The header of `list` named `name` (any case), or its end.
template <typename List>
auto header_named(List& list, std::string_view name) {
  return std::find_if(list.begin(), list.end(), [name](const auto& header) {
    return model::same_field_name(header.first, name);
  });
}

}  // namespace

std::vector<std::pair<std::string, std::string>>::iterator Headers::find(std::string_view name) {
  return header_named(custom_, name);
}

bool Headers::is_omitted(std::string_view name) const {
  return std::any_of(omitted_.begin(), omitted_.end(), [name](const std::string& omitted) {
    return model::same_field_name(omitted, name);
  });
}

namespace {

/// A header curl adds of its own: its place among them (a -H line's is `user_rank`).
constexpr std::size_t user_rank = 8;
std::size_t curl_rank(std::string_view name) {
  constexpr std::array<std::string_view, user_rank> before_user{
      "Authorization",   "Range",   "User-Agent", "Accept",
      "Accept-Encoding", "Referer", "Cookie",     "If-Modified-Since"};
  for (std::size_t i = 0; i < before_user.size(); ++i) {
    if (model::same_field_name(name, before_user[i])) return i;
  }
  // A time condition's other forms go where If-Modified-Since does.
  if (model::same_field_name(name, "If-Unmodified-Since") ||
      model::same_field_name(name, "Last-Modified")) {
    return user_rank - 1;
  }
  return user_rank + 1;  // the body's: Content-Type, Expect
}

}  // namespace

void Headers::add_default(std::string_view name, std::string value) {
  if (find(name) == custom_.end() && !is_omitted(name) &&
      header_named(added_, name) == added_.end()) {
    added_.emplace_back(name, std::move(value));
  }
}

std::vector<std::pair<std::string, std::string>> Headers::in_order() const {
  auto added = added_;
  std::stable_sort(added.begin(), added.end(), [](const auto& a, const auto& b) {
    return curl_rank(a.first) < curl_rank(b.first);
  });
  const auto user_at = std::find_if(added.begin(), added.end(), [](const auto& header) {
    return curl_rank(header.first) > user_rank;
  });
  added.insert(user_at, custom_.begin(), custom_.end());
  return added;
}

std::size_t Headers::defaults_at() const {
  return static_cast<std::size_t>(std::count_if(
      added_.begin(), added_.end(),
      [](const auto& header) { return curl_rank(header.first) <= curl_rank("User-Agent"); }));
}

std::size_t Headers::body_headers_at() const {
  const auto before = std::count_if(added_.begin(), added_.end(), [](const auto& header) {
    return curl_rank(header.first) < user_rank;
  });
  return static_cast<std::size_t>(before) + custom_.size();
}

void Headers::omit_default(std::string_view name) {
  if (find(name) == custom_.end() && !is_omitted(name)) omitted_.emplace_back(name);
}

void Headers::set_body_header(std::string_view name, std::string value) {
  if (const auto found = find(name); found != custom_.end()) custom_.erase(found);
  added_.emplace_back(name, std::move(value));
}

void Headers::add_as_user(std::string_view name, std::string value) {
  if (find(name) == custom_.end() && !is_omitted(name))
    custom_.emplace_back(name, std::move(value));
}

std::optional<std::string> Headers::value(std::string_view name) const {
  const auto found = header_named(custom_, name);
  if (found == custom_.end()) return std::nullopt;
  return found->second;
}

std::string base64(std::string_view bytes) {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    unsigned chunk = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= static_cast<unsigned char>(bytes[i + 2]);
    out += alphabet[(chunk >> 18) & 63];
    out += alphabet[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? alphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? alphabet[chunk & 63] : '=';
  }
  return out;
}

}  // namespace stampede::curl
