// -redirect: the next request after a 3xx, for redirects that stay on the same origin.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/request.hpp"
#include "model/response.hpp"
#include "server/client/prepared_request.hpp"

namespace stampede::client {

/// At most this many redirects are followed for one request (curl's -L allows 50; browsers 20).
inline constexpr int max_redirects = 10;

/// The request a redirect leads to.
struct Redirect {
  std::string target;  ///< path and query on the same origin
  PreparedRequest prepared;
};

/// True for the statuses that carry a Location to follow (301, 302, 303, 307, 308).
bool is_redirect(int status);

/// The request to send after `status` with `location`, reached from `current_target` of
/// `origin`, prepared for `protocol`. 303, and 301/302 after anything but GET or HEAD, become a GET
/// without a body (as browsers and curl do); 307 and 308 keep method and body. Nullopt when
/// `location` is malformed or leaves the origin (another scheme, host or port needs another
/// connection setup, which a user's single connection does not have).
std::optional<Redirect> follow_redirect(const model::Request& origin,
                                        std::string_view current_target, int status,
                                        std::string_view location,
                                        model::Protocol protocol = model::Protocol::http1);

/// -redirect, for a client's exchange loop: the request of the next hop after `response` (kept
/// in `hop`: a pointer, as most clients never follow one and each client is memory per
/// connection), or null when `response` is the last (no redirect asked for or possible, or
/// max_redirects reached). `hops` counts the hops of this exchange, from 0; the response body
/// is dropped for the next hop's, which is prepared for `protocol`.
const PreparedRequest* next_hop(const model::Request* origin, int& hops,
                                std::unique_ptr<Redirect>& hop, model::Response& response,
                                model::Protocol protocol);

}  // namespace stampede::client
