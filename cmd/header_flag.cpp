// parse_header_flag() and apply_header(): the command line's -H with curl's meaning, refusing what
// would split the request, leave it without a Host, or frame its body wrongly.
#include "cmd/header_flag.hpp"

#include <algorithm>

#include "cmd/options.hpp"
#include "curl/headers.hpp"
#include "model/http_syntax.hpp"

namespace stampede::cmd {

namespace {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

[[noreturn]] void refuse_header(const std::string& text, const std::string& why) {
  constexpr std::size_t shown = 80;  // enough to find it on the command line
  throw UsageError("bad header '" + (text.size() > shown ? text.substr(0, shown) + "..." : text) +
                   "': " + why);
}

void check_name(const HeaderFlag& header, const std::string& text) {
  if (!model::is_token(header.name)) {
    refuse_header(text, "a header name is one word (use -H 'Name: value')");
  }
  // Curl's `Host:` would send no Host, `Host;` an empty one: neither is a valid request to a
  // URL with a host (RFC 9112 3.2).
  if (model::same_field_name(header.name, "Host") && header.value.empty()) {
    refuse_header(text,
                  "HTTP/1.1 requires a Host header naming the server (RFC 9112 3.2); give one, "
                  "or leave -H Host out to send the URL's");
  }
  if (model::same_field_name(header.name, "Content-Length") ||
      model::same_field_name(header.name, "Transfer-Encoding")) {
    refuse_header(text, "stampede frames the body itself (-data sets its length)");
  }
}

}  // namespace

HeaderFlag parse_header_flag(const std::string& text) {
  if (const auto bad = model::unsafe_in_field_value(text); bad != std::string::npos) {
    refuse_header(text.substr(0, bad) + "...",
                  text[bad] == '\0' ? "it contains a NUL byte"
                                    : "it contains a line break, which would start another header");
  }
  HeaderFlag header;
  const auto colon = text.find(':');
  const auto trimmed = trim(text);
  if (colon != std::string::npos) {
    header.name = trim(std::string_view(text).substr(0, colon));
    header.value = trim(std::string_view(text).substr(colon + 1));
    header.drop = header.value.empty();
  } else if (trimmed.size() > 1 && trimmed.ends_with(';')) {
    header.name = trim(std::string_view(trimmed).substr(0, trimmed.size() - 1));
  } else {
    refuse_header(text,
                  "no ':' (use -H 'Name: value'; 'Name;' sends an empty value, 'Name:' drops a "
                  "default header)");
  }
  check_name(header, text);
  if (const auto why = model::too_long_field(header.name, header.value); !why.empty()) {
    throw UsageError(why);
  }
  return header;
}

void apply_header(const HeaderFlag& header, bool replace, model::Request& request) {
  auto& headers = request.headers;
  const auto named = [&](const auto& h) { return model::same_field_name(h.first, header.name); };
  std::erase_if(request.omit_headers,
                [&](const std::string& name) { return model::same_field_name(name, header.name); });
  if (header.drop) {
    std::erase_if(headers, named);
    request.omit_headers.push_back(header.name);
    return;
  }
  const auto found = replace ? std::find_if(headers.begin(), headers.end(), named) : headers.end();
  if (found != headers.end()) {
    found->second = header.value;
  } else {
    headers.emplace_back(header.name, header.value);
  }
}

void add_basic_auth(const std::string& credentials, model::Request& request) {
  const auto named = [](std::string_view name) {
    return model::same_field_name(name, "Authorization");
  };
  const bool set = std::any_of(request.headers.begin(), request.headers.end(),
                               [&](const auto& h) { return named(h.first); });
  const bool dropped = std::any_of(request.omit_headers.begin(), request.omit_headers.end(), named);
  if (credentials.empty() || set || dropped) return;
  request.headers.emplace_back("Authorization", "Basic " + curl::base64(credentials));
}

}  // namespace stampede::cmd
