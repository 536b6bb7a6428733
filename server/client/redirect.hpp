// -redirect: the next request after a 3xx, for redirects that stay on the same origin.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/request.hpp"
#include "model/response.hpp"
#include "server/client/prepared_request.hpp"

namespace stampede::client {

/// At most this many redirects are followed for one request (curl's -L allows 50; browsers 20).
inline constexpr int max_redirects = 10;

/// A request an exchange sends after its first (a redirect's hop, --digest's answer), prepared.
struct Redirect {
  std::string target;  ///< path and query on the same origin
  PreparedRequest prepared;
};

/// True for the statuses that carry a Location to follow (301, 302, 303, 307, 308).
bool is_redirect(int status);

/// The request to send after `status` with `location`, reached from `current_target` of
/// `origin`. 303, and 301/302 after anything but GET or HEAD, become a GET without a body (as
/// browsers and curl do); 307 and 308 keep method and body. Nullopt when `location` is
/// malformed or leaves the origin (another scheme, host or port needs another connection setup,
/// which a user's single connection does not have).
std::optional<model::Request> follow_redirect(const model::Request& origin,
                                              std::string_view current_target, int status,
                                              std::string_view location);

/// -redirect, for a client's exchange loop: the next hop after `response`, which answered a
/// request for `current_target` of `origin`; nullopt when `response` is the last (no redirect
/// asked for or possible).
std::optional<model::Request> redirect_hop(const model::Request& origin,
                                           std::string_view current_target,
                                           const model::Response& response);

}  // namespace stampede::client
