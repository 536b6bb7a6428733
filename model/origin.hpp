// Where a request goes: scheme, host and port, and how they are spelled in URLs and headers.
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace stampede::model {

/// The scheme decides the transport (plain TCP, or TLS), whether the connection is upgraded
/// to WebSocket (ws, wss), and whether the request is a gRPC call (grpc: h2c; grpcs: TLS).
enum class Scheme : unsigned char { http, https, ws, wss, grpc, grpcs };

/// True for the schemes that go over TLS: https, wss and grpcs.
constexpr bool is_secure(Scheme scheme) {
  return scheme == Scheme::https || scheme == Scheme::wss || scheme == Scheme::grpcs;
}

/// True for the gRPC schemes: grpc (HTTP/2 over TCP) and grpcs (over TLS).
constexpr bool is_grpc(Scheme scheme) { return scheme == Scheme::grpc || scheme == Scheme::grpcs; }

/// True for the WebSocket schemes (RFC 6455): ws and wss.
constexpr bool is_websocket(Scheme scheme) { return scheme == Scheme::ws || scheme == Scheme::wss; }

/// An origin as RFC 6454 defines it: two requests with equal origins may share a connection
/// (when they also agree on the certificate check, which is the connection's, not the origin's).
struct Origin {
  Scheme scheme = Scheme::http;
  std::string host;  ///< name or address, without brackets for IPv6
  unsigned short port = 80;

  /// 443 over TLS (https, wss, grpcs), else 80.
  static constexpr unsigned short default_port(Scheme scheme) {
    return is_secure(scheme) ? 443 : 80;
  }
  /// "http", "https", "ws", "wss", "grpc" or "grpcs".
  [[nodiscard]] const char* scheme_name() const {
    constexpr std::array<const char*, 6> names{"http", "https", "ws", "wss", "grpc", "grpcs"};
    return names[static_cast<std::size_t>(scheme)];
  }
  /// True when the connection goes over TLS.
  [[nodiscard]] bool secure() const { return is_secure(scheme); }
  /// The host as a URL spells it: an IPv6 address in brackets.
  [[nodiscard]] std::string url_host() const {
    return host.find(':') != std::string::npos ? "[" + host + "]" : host;
  }
  /// The Host header's value and a URL's authority: the port only when not the scheme's default.
  [[nodiscard]] std::string authority() const {
    return port == default_port(scheme) ? url_host() : url_host() + ":" + std::to_string(port);
  }
  /// "https://[::1]:8443", the port only when not the scheme's default; a target follows it.
  [[nodiscard]] std::string url() const { return std::string(scheme_name()) + "://" + authority(); }

  /// Same origin: scheme, host and port all equal.
  friend bool operator==(const Origin&, const Origin&) = default;
};

}  // namespace stampede::model
