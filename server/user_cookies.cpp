// UserCookies: the jar asked before each request and told after each response.
#include "server/user_cookies.hpp"

#include <algorithm>
#include <ctime>

namespace stampede::server {

namespace {

constexpr std::string_view set_cookie = "set-cookie";

session::UnixSeconds wall_clock() { return static_cast<session::UnixSeconds>(std::time(nullptr)); }

}  // namespace

void UserCookies::want_headers(model::Response& response) const {
  auto& wanted = response.wanted_headers;
  if (on_ && std::find(wanted.begin(), wanted.end(), set_cookie) == wanted.end()) {
    wanted.emplace_back(set_cookie);
  }
}

const client::PreparedRequest& UserCookies::request_for(const FlowStep& step) {
  if (jar_.empty()) return step.prepared;
  value_.clear();
  jar_.header_for(step.request.origin, step.request.target, wall_clock(), value_);
  if (value_.empty()) return step.prepared;
  return client::with_cookies(step.prepared, value_, copies_);
}

void UserCookies::keep(const FlowStep& step, const model::Response& response) {
  if (!on_) return;
  for (const auto& [name, value] : response.headers) {
    if (name == set_cookie)
      jar_.receive(value, step.request.origin, step.request.target, wall_clock());
  }
}

}  // namespace stampede::server
