// A user's session between its exchanges: its variables rendered into each request, its cookies
// sent with each request and kept from each response, its captures taken from responses.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/response.hpp"
#include "server/client/client.hpp"
#include "server/client/prepared_request.hpp"
#include "server/flow.hpp"
#include "server/session/cookie_jar.hpp"
#include "server/session/template.hpp"

namespace stampede::server {

/// One user's variables and cookie jar, and the copies of its requests that carry them. A step
/// without variables, while the jar is empty (always, for a server that sets no cookie), goes
/// as the bytes prepared once.
class UserSession final : public client::SessionCookies {
 public:
  /// `cookies`: Plan::cookies (false: nothing is kept or sent); `user`: the user's number;
  /// `flow`: the steps, whose captures the session keeps values for.
  UserSession(bool cookies, std::uint64_t user, const Flow& flow);

  /// Makes the clients keep Set-Cookie headers, and the headers captures read, in `response`.
  void want_headers(model::Response& response) const;
  /// The user starts its round `round` (from 0): ${seq}, its --data-file row, and the steps
  /// it sends (a mix's flow), which it returns.
  StepRange start_round(std::uint64_t round) {
    values_.round = round;
    values_.row = flow_.row_for(values_);
    return flow_.round_steps(values_);
  }
  /// The request to send for `step`: its own, or a copy with the user's values and cookies in
  /// it (valid until the next call).
  const client::PreparedRequest& request_for(const FlowStep& step);
  /// The variable that made request_for()'s last request unsafe (CR, LF or NUL for a header):
  /// that request must not be sent.
  [[nodiscard]] const std::optional<session::Variable>& unsafe() const { return values_.unsafe; }
  /// Keeps what `response`'s Set-Cookie headers say, for the request `step` sent.
  void keep(const FlowStep& step, const model::Response& response);
  /// A redirect's or --digest's response within an exchange: its cookies are kept.
  void keep_cookies(const model::Origin& origin, std::string_view target,
                    const model::Response& response) override;
  /// The jar's cookies for the exchange's next request.
  std::string cookies_for(const model::Origin& origin, std::string_view target) override;
  /// Runs `step`'s captures on `response` (a complete, accepted one): the capture that found
  /// nothing (the step fails as ErrorKind::capture), or nullptr when each found its value.
  const session::CompiledCapture* capture(const FlowStep& step, const model::Response& response);

 private:
  /// What a request with the user's values or cookies is written into. Made at the first such
  /// request: most users send only the bytes prepared once, and 900 bytes a user is a fifth of
  /// the memory a held connection costs.
  struct Copies {
    client::RequestCopy rendered;
    model::Request sent;  ///< a step with FlowStep::fields as rendered: its hops start from it
    client::RequestCopy with_cookies;
    std::string cookie_value;
  };

  const client::PreparedRequest& rendered(const FlowStep& step);
  Copies& copies();

  bool cookies_;
  const Flow& flow_;
  session::CookieJar jar_;
  session::UserValues values_;
  std::unique_ptr<Copies> copies_;
};

}  // namespace stampede::server
