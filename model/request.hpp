// What to send: one request, fully resolved from the command line or a curl file.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/capture.hpp"
#include "model/origin.hpp"

namespace stampede::model {

/// The HTTP version the user asked for (curl's --http1.0 / --http1.1 / --http2 /
/// --http2-prior-knowledge, stampede's -http2); `any` lets the client pick. `http1_0` writes
/// HTTP/1.0 on the request line (a connection is then kept only where the server agrees). Over TLS
/// both HTTP/2 values offer "h2" by ALPN and fall back to HTTP/1.1 as curl does. Over plain TCP,
/// `http2` asks to upgrade as curl does (HTTP/1.1 with `Upgrade: h2c`, RFC 7540 3.2; see
/// asks_h2c_upgrade()) and `http2_prior_knowledge` is HTTP/2 without asking (h2c, as h2load and
/// oha do).
enum class HttpVersion : unsigned char { any, http1_0, http1_1, http2, http2_prior_knowledge };

/// Where connections go when not to the origin's own host and port (curl's --resolve,
/// --connect-to, --unix-socket). The Host header, SNI and the certificate check still name the
/// origin.
struct Route {
  std::string host;         ///< a name or address to connect to instead; empty: the origin's
  unsigned short port = 0;  ///< 0: the origin's port
  std::string unix_socket;  ///< a Unix socket's path (a leading NUL: the abstract namespace)
  friend bool operator==(const Route&, const Route&) = default;
};

/// A user name and password (curl's -u).
struct Credentials {
  std::string user;
  std::string password;
  /// curl's --basic beside --digest: a 401 that offers only Basic is answered with it.
  bool basic_too = false;
};

/// A cookie a Netscape cookie file holds (curl's `-b FILE`).
struct JarCookie {
  std::string domain;     ///< lower case, without a leading dot
  bool host_only = true;  ///< this host only (else its subdomains too)
  std::string path = "/";
  bool secure = false;
  std::int64_t expires = 0;  ///< seconds since 1970; 0: a session cookie
  std::string name;
  std::string value;
};

/// One request as the user asked for it; clients serialize it once and reuse the bytes.
struct Request {
  Origin origin;
  Route route;
  std::string target = "/";  ///< path and query, as sent on the request line
  std::string method = "GET";
  std::vector<std::pair<std::string, std::string>> headers;  ///< user headers, in order
  std::string body;
  bool keep_alive = false;  ///< reuse one connection per user (-k)
  bool follow_redirects = false;
  bool insecure = false;  ///< skip TLS certificate verification
  /// A user's next TLS connection resumes its last session (as a browser's); false: every
  /// handshake is a full one (--no-tls-resume, curl's --no-sessionid).
  bool tls_resume = true;
  /// Default headers not to send (curl's `-H 'Accept:'`), matched without regard to case.
  std::vector<std::string> omit_headers;
  bool compressed = false;  ///< Accept-Encoding was asked for (--compressed): bodies may be encoded
  HttpVersion http_version = HttpVersion::any;
  std::chrono::milliseconds max_time{0};         ///< whole exchange (--max-time); 0: the run's -t
  std::chrono::milliseconds connect_timeout{0};  ///< connect only (--connect-timeout); 0: none
  /// WebSocket: the body is the message; sent as a binary frame (--binary), else as text.
  bool binary = false;
  /// WebSocket: the largest message accepted (--max-message); a larger one fails as too_big.
  std::uint64_t max_message = std::uint64_t{1} << 20;
  /// gRPC (grpc://, grpcs://): the method answers with a stream of messages, not exactly one.
  bool grpc_server_streaming = false;
  /// gRPC: the method takes a stream of messages (bidirectional, read with --stream).
  bool grpc_client_streaming = false;
  /// --stream: the response is read as a stream, an exchange each piece of it: a gRPC call's
  /// answer message, or the body's bytes as each read brings them (see asks_event_stream()
  /// for an event stream's events).
  bool stream = false;
  /// What this step keeps from its response for the requests that follow (`${NAME}`).
  std::vector<Capture> captures;
  /// --think har: how long the recorded user waited before this request, after the answer to
  /// the one before it; a round's first step waits for nothing.
  std::chrono::milliseconds pause{0};
  /// --digest: sent only in answer to a 401's Digest challenge (RFC 7616), as curl does.
  std::optional<Credentials> digest;
  /// `-b FILE`'s cookies: as curl's cookie engine loads them, each user's jar starts with them,
  /// so a server's Set-Cookie replaces or deletes them (`-b name=value` strings are headers).
  std::vector<JarCookie> jar_cookies;
  /// Where in `headers` stampede's own User-Agent and Accept go unless replaced: first, or in
  /// a curl file's request curl's place for its own (after Authorization and Range).
  std::size_t defaults_at = 0;
  /// Where in `headers` those go after Content-Length, as curl sends its body's Content-Type
  /// and Expect; past the end: none do.
  std::size_t body_headers_at = SIZE_MAX;
};

}  // namespace stampede::model
