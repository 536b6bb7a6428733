// A user's cookies between its exchanges: sent with each request, kept from each response.
#pragma once

#include <string>

#include "model/response.hpp"
#include "server/client/prepared_request.hpp"
#include "server/flow.hpp"
#include "server/session/cookie_jar.hpp"

namespace stampede::server {

/// One user's cookie jar and the copies of its requests that carry the jar's cookies. While
/// the jar is empty (always, for a server that sets none) each step's own bytes go unchanged.
class UserCookies {
 public:
  /// `on`: Plan::cookies; when false nothing is kept or sent.
  explicit UserCookies(bool on) : on_(on) {}

  /// Makes the clients keep Set-Cookie headers in `response`.
  void want_headers(model::Response& response) const;
  /// The request to send for `step`: its own, or a copy with the user's cookies in it (valid
  /// until the next call).
  const client::PreparedRequest& request_for(const FlowStep& step);
  /// Keeps what `response`'s Set-Cookie headers say, for the request `step` sent.
  void keep(const FlowStep& step, const model::Response& response);

 private:
  bool on_;
  session::CookieJar jar_;
  client::CookieCopies copies_;
  std::string value_;
};

}  // namespace stampede::server
