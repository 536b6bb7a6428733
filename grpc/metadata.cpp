// -H headers sorted into gRPC metadata, :authority and user-agent; reserved names refused.
#include "grpc/metadata.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace stampede::grpc {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

/// PROTOCOL-HTTP2.md's Header-Name: 1*( %x30-39 / %x61-7A / "_" / "-" / "." ).
bool is_header_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_' || c == '-' || c == '.';
  });
}

/// Why `name` (in lower case) may not be custom metadata; empty when it may.
std::string_view reserved(std::string_view name) {
  constexpr std::array<std::string_view, 5> connection_headers{
      "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"};
  if (name == "content-type") return "gRPC sets it (application/grpc)";
  if (name == "te") return "gRPC sets it (trailers)";
  if (name == "grpc-timeout") return "-t sets it";
  if (std::find(connection_headers.begin(), connection_headers.end(), name) !=
      connection_headers.end()) {
    return "HTTP/2 forbids connection-specific headers";
  }
  if (name.starts_with("grpc-") && name != "grpc-trace-bin" && name != "grpc-tags-bin") {
    return "names starting with grpc- are reserved for gRPC itself";
  }
  return {};
}

bool is_base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

/// `value` without its padding, if it is base64 (RFC 4648 section 4, padded or not).
std::optional<std::string> unpadded_base64(std::string_view value) {
  const auto end = value.find_last_not_of('=');
  const std::string_view data = value.substr(0, end == std::string_view::npos ? 0 : end + 1);
  const std::size_t padding = value.size() - data.size();
  const bool padding_fits = padding == 0 || (padding <= 2 && value.size() % 4 == 0);
  if (!padding_fits || data.size() % 4 == 1 ||
      !std::all_of(data.begin(), data.end(), is_base64_char)) {
    return std::nullopt;
  }
  return std::string(data);
}

/// PROTOCOL-HTTP2.md's ASCII-Value: space and printable ASCII.
bool is_ascii_value(std::string_view value) {
  return std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

/// The value to send for metadata `name`, or why there is none.
std::string metadata_value(const std::string& name, const std::string& given,
                           std::string_view value) {
  if (name.ends_with("-bin")) {
    if (auto unpadded = unpadded_base64(value)) return std::move(*unpadded);
    throw MetadataError("-H " + given + ": a -bin header's value must be base64");
  }
  if (!is_ascii_value(value)) {
    throw MetadataError("-H " + given +
                        ": the value must be printable ASCII (binary data goes in a -bin header, "
                        "as base64)");
  }
  return std::string(value);
}

}  // namespace

CallHeaders call_headers(const std::vector<std::pair<std::string, std::string>>& headers) {
  CallHeaders call;
  for (const auto& [given, value] : headers) {
    const auto name = lower(given);
    if (name == "host") {
      call.authority = value;
    } else if (name == "user-agent") {
      call.user_agent = value;
    } else if (!is_header_name(name)) {
      throw MetadataError("-H " + given +
                          ": not a gRPC metadata name (letters, digits, _ - . only)");
    } else if (const auto why = reserved(name); !why.empty()) {
      throw MetadataError("-H " + given + ": " + std::string(why));
    } else {
      call.metadata.emplace_back(name, metadata_value(name, given, value));
    }
  }
  return call;
}

}  // namespace stampede::grpc
