// follow_redirect(): RFC 3986 reference resolution by Boost.URL, then a same-origin check.
#include "server/client/redirect.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

namespace stampede::client {

namespace {

/// `next`'s origin equals `origin` (scheme names are lower-case once resolved by Boost.URL).
bool same_origin(const model::Origin& origin, const boost::urls::url& next) {
  const auto port =
      next.has_port() ? next.port_number() : model::Origin::default_port(origin.scheme);
  return next.scheme() == origin.scheme_name() && next.host_address() == origin.host &&
         port == origin.port;
}

}  // namespace

bool is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

std::optional<model::Request> follow_redirect(const model::Request& origin,
                                              std::string_view current_target, int status,
                                              std::string_view location) {
  const auto base_text =
      origin.origin.url() + std::string(current_target);  // the views below point into it
  const auto base = boost::urls::parse_uri(base_text);
  const auto reference = boost::urls::parse_uri_reference(location);
  if (location.empty() || !base || !reference) return std::nullopt;
  boost::urls::url next;
  if (!boost::urls::resolve(*base, *reference, next) || !same_origin(origin.origin, next)) {
    return std::nullopt;
  }
  model::Request request = origin;
  request.target = next.encoded_path().empty() ? "/" : std::string(next.encoded_path());
  if (next.has_query()) request.target += "?" + std::string(next.encoded_query());
  const bool keeps_method = status == 307 || status == 308 || request.method == "GET" ||
                            (request.method == "HEAD" && status != 303);
  if (!keeps_method) {
    request.method = "GET";
    request.body.clear();
    std::erase_if(request.headers, [](const auto& header) {
      return boost::beast::iequals(header.first, "content-type");
    });
  }
  return request;
}

std::optional<model::Request> redirect_hop(const model::Request& origin,
                                           std::string_view current_target,
                                           const model::Response& response) {
  if (!origin.follow_redirects || !is_redirect(response.status)) return std::nullopt;
  return follow_redirect(origin, current_target, response.status, response.location);
}

}  // namespace stampede::client
