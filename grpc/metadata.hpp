// Which -H headers become a gRPC call's metadata, and how their names and values are checked.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace stampede::grpc {

/// A header that cannot be sent on a gRPC call: one line for the user, naming it.
class MetadataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A call's headers from the user's -H, sorted: custom metadata, and the two request headers a
/// user may set (the others gRPC sets itself).
struct CallHeaders {
  /// Custom-Metadata: names in lower case (HTTP/2 requires it), in the user's order, repeats
  /// kept; a "-bin" value in base64 without padding, as PROTOCOL-HTTP2.md says to send it.
  std::vector<std::pair<std::string, std::string>> metadata;
  std::string authority;   ///< from -H Host: the :authority to send; empty: the URL's
  std::string user_agent;  ///< from -H User-Agent; empty: stampede's
};

/// Sorts `headers` (name, value as given to -H) for a call. A name must be gRPC's Header-Name
/// once in lower case (0-9 a-z _ - .); a value printable ASCII, or base64 for a name ending in
/// "-bin" (binary metadata: the user gives the base64, padded or not, since a command line cannot
/// hold arbitrary bytes). Refused, with the reason: content-type and te (gRPC's own values),
/// grpc-timeout (-t sets it), other grpc-* names (reserved for gRPC; grpc-trace-bin and
/// grpc-tags-bin, tracing context, are allowed), and HTTP/1.1's connection headers, which
/// HTTP/2 forbids. Throws MetadataError.
[[nodiscard]] CallHeaders call_headers(
    const std::vector<std::pair<std::string, std::string>>& headers);

}  // namespace stampede::grpc
