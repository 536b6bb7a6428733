// UserSession: the step's variables rendered, then the jar asked before each request; the jar
// told each response's Set-Cookie headers.
#include "server/user_session.hpp"

#include <algorithm>
#include <ctime>

namespace stampede::server {

namespace {

constexpr std::string_view set_cookie = "set-cookie";

session::UnixSeconds wall_clock() { return static_cast<session::UnixSeconds>(std::time(nullptr)); }

/// Loads into `jar` the cookies of the flow's `-b FILE`s (a file named by several steps gives
/// each cookie once: a later one replaces it).
void load_cookie_files(const Flow& flow, session::CookieJar& jar) {
  const auto now = wall_clock();
  for (const auto& step : flow.steps()) {
    for (const auto& cookie : step.request.jar_cookies) jar.load(cookie, now);
  }
}

}  // namespace

UserSession::UserSession(bool cookies, std::uint64_t user, const Flow& flow)
    : cookies_(cookies), flow_(flow), values_(user) {
  values_.captured.resize(flow.capture_names().size());
  if (cookies_) load_cookie_files(flow, jar_);
}

void UserSession::want_headers(model::Response& response) const {
  auto& wanted = response.wanted_headers;
  const auto want = [&](std::string_view name) {
    if (std::find(wanted.begin(), wanted.end(), name) == wanted.end()) wanted.emplace_back(name);
  };
  if (cookies_) want(set_cookie);
  for (const auto& name : flow_.capture_headers()) want(name);
}

const client::PreparedRequest& UserSession::request_for(const FlowStep& step) {
  const auto& request = rendered(step);
  if (jar_.empty()) return request;
  auto& copy = copies();
  copy.cookie_value.clear();
  jar_.header_for(step.request.origin, step.request.target, wall_clock(), copy.cookie_value);
  if (copy.cookie_value.empty()) return request;
  return client::with_cookies(request, copy.cookie_value, copy.with_cookies);
}

UserSession::Copies& UserSession::copies() {
  if (!copies_) copies_ = std::make_unique<Copies>();
  return *copies_;
}

/// The step's request with the user's values in it: its prepared bytes rendered, or, for one
/// whose exchange may go on, its fields rendered and prepared anew.
const client::PreparedRequest& UserSession::rendered(const FlowStep& step) {
  values_.unsafe.reset();
  if (step.fields) {
    auto& copy = copies();
    step.fields->render(step.request, values_, copy.sent);
    const auto protocol = flow_.destinations()[step.destination]->setup.protocol;
    copy.rendered.request = client::prepare(copy.sent, protocol);
    client::set_answers_of(copy.rendered.request, &copy.sent);
    return copy.rendered.request;
  }
  if (step.variables) return step.variables->render(step.prepared, values_, copies().rendered);
  return step.prepared;
}

void UserSession::keep(const FlowStep& step, const model::Response& response) {
  keep_cookies(step.request.origin, step.request.target, response);
}

void UserSession::keep_cookies(const model::Origin& origin, std::string_view target,
                               const model::Response& response) {
  if (!cookies_) return;
  for (const auto& [name, value] : response.headers) {
    if (name == set_cookie) jar_.receive(value, origin, target, wall_clock());
  }
}

std::string UserSession::cookies_for(const model::Origin& origin, std::string_view target) {
  std::string value;
  if (!jar_.empty()) jar_.header_for(origin, target, wall_clock(), value);
  return value;
}

const session::CompiledCapture* UserSession::capture(const FlowStep& step,
                                                     const model::Response& response) {
  for (const auto& capture : step.captures) {
    if (!capture.extract(response, values_.captured[capture.slot()])) return &capture;
  }
  return nullptr;
}

}  // namespace stampede::server
