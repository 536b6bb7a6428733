// URLs as curl reads them: a bare host means http://, dot segments go, the fragment is not sent.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "model/request.hpp"

namespace stampede::curl {

/// A URL stampede cannot send to: malformed, no host, a bad port, or a scheme other than http(s).
class UrlError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// How a URL is read: curl's --proto-default and --path-as-is.
struct UrlReading {
  std::string_view default_scheme = "http";  ///< for a URL with no `scheme://`
  bool path_as_is = false;                   ///< keep `/../` and `/./` as written
};

/// Fills scheme, host, port and target of `request` from `url` (a bare host means the default
/// scheme) and returns the URL's percent-decoded `user:password` (empty when it has none).
/// Throws UrlError.
std::string apply_url(std::string_view url, model::Request& request, const UrlReading& how = {});

/// curl's `-G`: appends `query` to the request target, after `?` or `&` as the target needs.
void append_query(std::string_view query, model::Request& request);

}  // namespace stampede::curl
