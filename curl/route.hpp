// --resolve, --connect-to and --unix-socket: where a request's connections go instead.
#pragma once

#include <vector>

#include "curl/command.hpp"
#include "model/request.hpp"

namespace stampede::curl {

/// Where connections to `origin` go as `command` says: --connect-to's first matching entry
/// first, then --resolve's entry for that host and port, or the Unix socket. An empty route
/// when nothing applies. Throws ParseError at an entry curl could not read.
model::Route route_of(const CurlCommand& command, const model::Origin& origin,
                      std::vector<Warning>& warnings);

}  // namespace stampede::curl
