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

/// Fills scheme, host, port and target of `request` from `url` (a bare host means http://) and
/// returns the URL's percent-decoded `user:password` (empty when it has none). Throws UrlError.
std::string apply_url(std::string_view url, model::Request& request);

/// curl's `-G`: appends `query` to the request target, after `?` or `&` as the target needs.
void append_query(std::string_view query, model::Request& request);

}  // namespace stampede::curl
