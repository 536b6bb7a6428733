// route_of(): curl's `HOST:PORT:ADDRESS` and `HOST1:PORT1:HOST2:PORT2` entries, matched as curl
// matches them (names without regard to case, `*` or an empty field for any).
#include "curl/route.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace stampede::curl {

namespace {

/// The `:`-separated fields of `text`; a `[...]` (an IPv6 address) is one field, brackets off.
std::vector<std::string> fields_of(std::string_view text) {
  std::vector<std::string> fields(1);
  bool bracket = false;
  for (const char c : text) {
    if (c == '[' && fields.back().empty()) {
      bracket = true;
    } else if (c == ']' && bracket) {
      bracket = false;
    } else if (c == ':' && !bracket) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

bool same_host(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

/// A port field: empty means any (0); anything but 1-65535 is refused.
unsigned short port_of(const std::string& field, const Argument& entry, const char* option) {
  if (field.empty()) return 0;
  unsigned port = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), port);
  if (error != std::errc{} || end != field.data() + field.size() || port < 1 || port > 65535) {
    throw ParseError(entry.where, std::string("bad port in ") + option + " '" + entry.value + "'");
  }
  return static_cast<unsigned short>(port);
}

/// --connect-to: the host and port connections go to instead of `host`:`port`, if an entry
/// matches.
void apply_connect_to(const CurlCommand& command, std::string& host, unsigned short& port) {
  for (const auto& entry : command.connect_tos) {
    const auto f = fields_of(entry.value);
    if (f.size() != 4) {
      throw ParseError(entry.where,
                       "bad --connect-to '" + entry.value +
                           "' (expected HOST1:PORT1:HOST2:PORT2, fields may be empty)");
    }
    const auto from_port = port_of(f[1], entry, "--connect-to");
    const auto to_port = port_of(f[3], entry, "--connect-to");
    if ((!f[0].empty() && !same_host(f[0], host)) || (from_port != 0 && from_port != port)) {
      continue;
    }
    if (!f[2].empty()) host = f[2];
    if (to_port != 0) port = to_port;
    return;
  }
}

/// --resolve: the address for `host`:`port`, if an entry gives one.
std::string resolved(const CurlCommand& command, const std::string& host, unsigned short port,
                     std::vector<Warning>& warnings) {
  for (const auto& entry : command.resolves) {
    std::string_view text = entry.value;
    if (text.starts_with('-')) continue;  // removes a cached entry: nothing to stampede
    if (text.starts_with('+')) text.remove_prefix(1);
    const auto f = fields_of(text);
    if (f.size() < 3 || f[0].empty() || f[1].empty() || f[2].empty()) {
      throw ParseError(entry.where,
                       "bad --resolve '" + entry.value + "' (expected HOST:PORT:ADDRESS)");
    }
    if ((f[0] != "*" && !same_host(f[0], host)) || port_of(f[1], entry, "--resolve") != port) {
      continue;
    }
    const auto comma = f[2].find(',');
    if (comma != std::string::npos || f.size() > 3) {
      warnings.push_back({entry.where,
                          "--resolve gives several addresses; stampede connects to "
                          "the first only"});
    }
    return f[2].substr(0, comma);
  }
  return {};
}

}  // namespace

model::Route route_of(const CurlCommand& command, const model::Origin& origin,
                      std::vector<Warning>& warnings) {
  model::Route route;
  if (command.unix_socket) {
    route.unix_socket = (command.abstract_socket ? std::string(1, '\0') : std::string()) +
                        command.unix_socket->value;
    return route;
  }
  auto host = origin.host;
  auto port = origin.port;
  apply_connect_to(command, host, port);
  const auto address = resolved(command, host, port, warnings);
  if (!address.empty()) host = address;
  if (host != origin.host) route.host = host;
  if (port != origin.port) route.port = port;
  return route;
}

}  // namespace stampede::curl
