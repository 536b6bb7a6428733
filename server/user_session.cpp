// UserSession: the step's variables rendered, then the jar asked before each request; the jar
// told each response's Set-Cookie headers.
#include "server/user_session.hpp"

#include <algorithm>
#include <ctime>

namespace stampede::server {

namespace {

constexpr std::string_view set_cookie = "set-cookie";

session::UnixSeconds wall_clock() { return static_cast<session::UnixSeconds>(std::time(nullptr)); }

}  // namespace

UserSession::UserSession(bool cookies, std::uint64_t user, const Flow& flow)
    : cookies_(cookies), flow_(flow), values_(user) {
  values_.captured.resize(flow.capture_names().size());
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
  const auto& request =
      step.variables ? step.variables->render(step.prepared, values_, rendered_) : step.prepared;
  if (jar_.empty()) return request;
  cookie_value_.clear();
  jar_.header_for(step.request.origin, step.request.target, wall_clock(), cookie_value_);
  if (cookie_value_.empty()) return request;
  return client::with_cookies(request, cookie_value_, with_cookies_);
}

void UserSession::keep(const FlowStep& step, const model::Response& response) {
  if (!cookies_) return;
  for (const auto& [name, value] : response.headers) {
    if (name == set_cookie) {
      jar_.receive(value, step.request.origin, step.request.target, wall_clock());
    }
  }
}

const session::CompiledCapture* UserSession::capture(const FlowStep& step,
                                                     const model::Response& response) {
  for (const auto& capture : step.captures) {
    if (!capture.extract(response, values_.captured[capture.slot()])) return &capture;
  }
  return nullptr;
}

}  // namespace stampede::server
