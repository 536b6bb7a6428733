// What to send: one request, fully resolved from the command line or a curl file.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace stampede::model {

/// The scheme decides the client: plain HTTP/1.1 or HTTP/1.1 over TLS.
enum class Scheme : unsigned char { http, https };

/// One request as the user asked for it; clients serialize it once and reuse the bytes.
struct Request {
  Scheme scheme = Scheme::http;
  std::string host;  ///< name or address, without brackets for IPv6
  unsigned short port = 80;
  std::string target = "/";  ///< path and query, as sent on the request line
  std::string method = "GET";
  std::vector<std::pair<std::string, std::string>> headers;  ///< user headers, in order
  std::string body;
  bool keep_alive = false;  ///< reuse one connection per user (-k)
  bool follow_redirects = false;
  bool insecure = false;  ///< skip TLS certificate verification
};

}  // namespace stampede::model
