// A user's cookie jar: RFC 6265's storage and sending rules, as browsers and curl keep cookies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/origin.hpp"
#include "model/request.hpp"

namespace stampede::session {

/// Seconds since 1970 (UTC), the clock cookies expire by.
using UnixSeconds = long long;

/// The cookies one user was given, sent back as a browser would. Not thread-safe: one user's.
class CookieJar {
 public:
  /// At most this many cookies are kept; a new one beyond it evicts the oldest (browsers keep
  /// about 180 per site), so a server setting a new name each time cannot grow a user's memory.
  static constexpr std::size_t max_cookies = 200;

  /// Stores what one Set-Cookie header says, for the response to a request to `origin` with
  /// `target` (its path and query) at `now`: a new cookie, a replacement, or (Max-Age=0 or an
  /// Expires in the past) a removal. A header RFC 6265 says to ignore changes nothing.
  void receive(std::string_view set_cookie, const model::Origin& origin, std::string_view target,
               UnixSeconds now);

  /// Stores a cookie a cookie file gave (curl's `-b FILE`), as curl's engine loads it: an
  /// expired one is dropped.
  void load(const model::JarCookie& cookie, UnixSeconds now);

  /// Appends to `out` the Cookie header's value for a request to `origin` with `target` at
  /// `now`: `name=value` pairs joined by "; ", longer paths first, then older first. Appends
  /// nothing when no cookie goes there.
  void header_for(const model::Origin& origin, std::string_view target, UnixSeconds now,
                  std::string& out) const;

  /// True when no cookie is kept (expired ones may still be, until the next receive()).
  [[nodiscard]] bool empty() const { return cookies_.empty(); }
  /// How many cookies are kept.
  [[nodiscard]] std::size_t size() const { return cookies_.size(); }

 private:
  struct Cookie {
    std::string name;
    std::string value;
    std::string domain;  ///< lower case, no leading dot
    std::string path;
    UnixSeconds expires = 0;  ///< 0: a session cookie, kept for the run
    bool host_only = true;    ///< no Domain attribute: only this exact host
    bool secure = false;
    std::uint64_t created = 0;  ///< the order cookies were first set in
  };

  void store(Cookie cookie, UnixSeconds now);

  std::vector<Cookie> cookies_;
  std::uint64_t next_created_ = 0;
};

/// A date in a cookie's Expires attribute, read by RFC 6265 section 5.1.1's algorithm, as
/// seconds since 1970; -1 when it is not one.
UnixSeconds parse_cookie_date(std::string_view text);

}  // namespace stampede::session
