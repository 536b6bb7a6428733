// apply_url(): Boost.URL parses; the port range, dot segments and -G's query follow curl.
#include "curl/url.hpp"

#include <algorithm>
#include <array>
#include <boost/url/grammar/ci_string.hpp>
#include <boost/url/parse.hpp>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <optional>
#include <vector>

namespace stampede::curl {

namespace {

/// Boost.URL wraps ports above 65535 silently, so the digits are checked here.
unsigned short parse_port(std::string_view digits, std::string_view url) {
  unsigned port = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (error != std::errc{} || end != digits.data() + digits.size() || port < 1 || port > 65535) {
    throw UrlError("bad port in URL '" + std::string(url) + "' (use 1-65535)");
  }
  return static_cast<unsigned short>(port);
}

/// The first byte of `url` that no URL may hold as it is (RFC 3986 2: a control, a space,
/// `"<>\^`{|}`, or a byte past ASCII), named with its place: ", at character 12: a space"; ""
/// when there is none. A `${...}` variable is skipped: it is replaced before the URL is sent.
std::string first_bad_character(std::string_view url) {
  constexpr std::string_view refused = "\"<>\\^`{|}";
  for (std::size_t i = 0; i < url.size(); ++i) {
    if (url.substr(i, 2) == "${") {
      const auto end = url.find('}', i);
      if (end == std::string_view::npos) break;
      i = end;
      continue;
    }
    const auto byte = static_cast<unsigned char>(url[i]);
    if (byte > ' ' && byte < 0x7F && refused.find(url[i]) == std::string_view::npos) continue;
    std::array<char, 8> hex{};
    std::snprintf(hex.data(), hex.size(), "\\x%02X", byte);
    const std::string what = byte == ' '                 ? "a space"
                             : byte > ' ' && byte < 0x7F ? "'" + std::string(1, url[i]) + "'"
                                                         : "the byte " + std::string(hex.data());
    return ", at character " + std::to_string(i + 1) + ": " + what + " (percent-encode it)";
  }
  return "";
}

/// RFC 3986's remove_dot_segments, as curl applies it before sending (`/a/../b` -> `/b`).
std::string remove_dot_segments(std::string_view path) {
  std::string out;
  while (!path.empty()) {
    if (path.starts_with("../") || path.starts_with("./")) {
      path.remove_prefix(path.find('/') + 1);
    } else if (path.starts_with("/./") || path == "/.") {
      path = path.size() == 2 ? "/" : path.substr(2);
    } else if (path.starts_with("/../") || path == "/..") {
      path = path.size() == 3 ? "/" : path.substr(3);
      out.erase(std::min(out.size(), out.rfind('/')));
    } else if (path == "." || path == "..") {
      path = {};
    } else {
      const auto next = path.find('/', 1);
      out += path.substr(0, next);
      path = next == std::string_view::npos ? std::string_view{} : path.substr(next);
    }
  }
  return out;
}

/// The scheme Boost.URL knows as `id`, or gRPC's (grpc, grpcs), which it does not.
std::optional<model::Scheme> scheme_of(boost::urls::scheme id, std::string_view name) {
  if (boost::urls::grammar::ci_is_equal(name, "grpc")) return model::Scheme::grpc;
  if (boost::urls::grammar::ci_is_equal(name, "grpcs")) return model::Scheme::grpcs;
  switch (id) {
    case boost::urls::scheme::http:
      return model::Scheme::http;
    case boost::urls::scheme::https:
      return model::Scheme::https;
    case boost::urls::scheme::ws:
      return model::Scheme::ws;
    case boost::urls::scheme::wss:
      return model::Scheme::wss;
    default:
      return std::nullopt;
  }
}

/// stampede's variables (`${...}`, `$${`) are not URL characters: while Boost.URL reads the
/// URL each is a numbered placeholder (`%FFstampede0%FF`), put back in the target after. One in a
/// segment that `..` removes goes with it.
constexpr std::string_view placeholder = "%FFstampede";
constexpr std::string_view placeholder_end = "%FF";

std::string protect_variables(std::string_view url, std::vector<std::string>& variables) {
  std::string out;
  for (std::size_t at = 0; at < url.size();) {
    auto start = url.find("${", at);
    if (start != std::string_view::npos && start > at && url[start - 1] == '$') --start;
    const auto close = start == std::string_view::npos ? start : url.find('}', start);
    if (close == std::string_view::npos) {
      out += url.substr(at);
      break;
    }
    out += url.substr(at, start - at);
    out += placeholder;
    out += std::to_string(variables.size());
    out += placeholder_end;
    variables.emplace_back(url.substr(start, close + 1 - start));
    at = close + 1;
  }
  return out;
}

/// Puts each placeholder's variable back; text that only looks like a placeholder (the URL
/// had `%FFstampede` in it) stays as it was.
void restore_variables(std::string& target, const std::vector<std::string>& variables) {
  if (variables.empty()) return;
  for (auto at = target.find(placeholder); at != std::string::npos;
       at = target.find(placeholder, at)) {
    const auto digits = at + placeholder.size();
    std::size_t index = 0;
    const auto [end, error] =
        std::from_chars(target.data() + digits, target.data() + target.size(), index);
    const auto after = static_cast<std::size_t>(end - target.data());
    if (error != std::errc{} || index >= variables.size() ||
        target.compare(after, placeholder_end.size(), placeholder_end) != 0) {
      at = digits;
      continue;
    }
    target.replace(at, after + placeholder_end.size() - at, variables[index]);
    at += variables[index].size();
  }
}

}  // namespace

std::string apply_url(std::string_view original, model::Request& request, const UrlReading& how) {
  std::vector<std::string> variables;
  const auto protected_url = protect_variables(original, variables);
  const std::string_view url = protected_url;
  const std::string text = url.find("://") == std::string_view::npos
                               ? std::string(how.default_scheme) + "://" + std::string(url)
                               : std::string(url);
  const auto parsed = boost::urls::parse_uri(text);
  const auto hint =
      " (expected http://host[:port]/path, https://, ws://, wss://, grpc:// or grpcs://...)";
  if (!parsed) {
    const auto bad = first_bad_character(original);
    throw UrlError("malformed URL '" + std::string(original) + "'" + (bad.empty() ? hint : bad));
  }
  // Schemes are case-insensitive (RFC 3986); Boost.URL gives scheme_id for the known ones.
  const auto scheme = scheme_of(parsed->scheme_id(), parsed->scheme());
  if (!scheme) {
    throw UrlError("unsupported scheme '" + std::string(parsed->scheme()) + "' in '" +
                   std::string(original) +
                   "' (stampede speaks http://, https://, ws://, wss://, grpc:// and grpcs://)");
  }
  auto& origin = request.origin;
  origin.scheme = *scheme;
  origin.host = parsed->host_address();
  if (origin.host.empty()) throw UrlError("no host in URL '" + std::string(original) + "'" + hint);
  origin.port = model::Origin::default_port(origin.scheme);
  // After the authority the path is empty or starts with `/` (RFC 3986 3.3); Boost.URL 1.81
  // takes `host:80abc/` as port 80 and path `abc/`, which curl refuses as a bad port.
  const auto raw_path = parsed->encoded_path();
  if (!raw_path.empty() && !raw_path.starts_with('/')) {
    throw UrlError(parsed->has_port()
                       ? "bad port in URL '" + std::string(original) + "' (use 1-65535)"
                       : "malformed URL '" + std::string(original) + "'" + hint);
  }
  if (parsed->has_port()) origin.port = parse_port(parsed->port(), original);
  if (!variables.empty() && parsed->encoded_host().find(placeholder) != std::string_view::npos) {
    throw UrlError("a variable (${...}) in URL '" + std::string(original) +
                   "' goes in its path or query, not its host");
  }
  const auto path = how.path_as_is ? std::string(raw_path) : remove_dot_segments(raw_path);
  request.target = path.empty() ? "/" : path;
  if (parsed->has_query()) request.target += "?" + std::string(parsed->encoded_query());
  restore_variables(request.target, variables);
  return parsed->has_userinfo() ? parsed->user() + ":" + parsed->password() : std::string();
}

void append_query(std::string_view query, model::Request& request) {
  const auto mark = request.target.find('?');
  if (mark == std::string::npos) {
    request.target += '?';
  } else if (mark + 1 != request.target.size()) {
    request.target += '&';
  }
  // curl writes the hex digits of the escapes it is given in lower case.
  for (std::size_t i = 0; i < query.size(); ++i) {
    const bool escape = query[i] == '%' && i + 2 < query.size() &&
                        std::isxdigit(static_cast<unsigned char>(query[i + 1])) &&
                        std::isxdigit(static_cast<unsigned char>(query[i + 2]));
    request.target += query[i];
    if (escape) {
      request.target += static_cast<char>(std::tolower(static_cast<unsigned char>(query[++i])));
      request.target += static_cast<char>(std::tolower(static_cast<unsigned char>(query[++i])));
    }
  }
}

}  // namespace stampede::curl
