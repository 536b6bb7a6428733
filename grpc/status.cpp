// gRPC status codes by name and number, and the status synthesized when a response lacks one.
#include "grpc/status.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "model/grpc_code.hpp"

namespace stampede::grpc {

namespace {

// The names are the model's, which the reports count calls by.
constexpr const auto& names = model::grpc_code_names;
static_assert(names.size() == code_count);

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    const auto upper = [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; };
    return upper(x) == upper(y);
  });
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string_view code_name(Code code) { return names[static_cast<std::size_t>(code)]; }

std::optional<Code> code_from_number(long long number) {
  if (number < 0 || number >= code_count) return std::nullopt;
  return static_cast<Code>(number);
}

std::optional<Code> parse_code(std::string_view text) {
  if (all_digits(text)) {
    long long number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc{}) return std::nullopt;
    return code_from_number(number);
  }
  const auto found =
      std::find_if(names.begin(), names.end(), [&](auto name) { return same_name(name, text); });
  if (found == names.end()) return std::nullopt;
  return static_cast<Code>(found - names.begin());
}

Code code_from_grpc_status(std::string_view value) {
  if (!all_digits(value)) return Code::internal;
  return parse_code(value).value_or(Code::unknown);
}

Code code_from_http_status(int http_status) {
  switch (http_status) {
    case 400:
    case 431:
      return Code::internal;
    case 401:
      return Code::unauthenticated;
    case 403:
      return Code::permission_denied;
    case 404:
      return Code::unimplemented;
    case 429:
    case 502:
    case 503:
    case 504:
      return Code::unavailable;
    default:
      return Code::unknown;
  }
}

std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
        hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

Status call_status(int http_status, std::optional<std::string_view> grpc_status,
                   std::optional<std::string_view> grpc_message) {
  if (grpc_status) {
    if (!all_digits(*grpc_status)) {
      return {Code::internal, "malformed grpc-status \"" + std::string(*grpc_status) + "\""};
    }
    return {code_from_grpc_status(*grpc_status),
            grpc_message ? percent_decode(*grpc_message) : std::string()};
  }
  if (http_status == 200) return {Code::unknown, "no grpc-status in the response"};
  return {code_from_http_status(http_status),
          "HTTP status " + std::to_string(http_status) + " without grpc-status"};
}

}  // namespace stampede::grpc
