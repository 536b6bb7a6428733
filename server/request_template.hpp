// A prepared request with variables in it: parsed once, rendered into a user's copy each time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/client/prepared_request.hpp"
#include "server/session/template.hpp"

namespace stampede::server {

/// The templates of a request's wire form: HTTP/1.1's head and body, or HTTP/2's field values
/// and body; its Content-Length follows the rendered body.
class RequestTemplate {
 public:
  /// The templates of `prepared`, or nullopt when it has no variable (HTTP/1.1 and HTTP/2
  /// only); `names` are the run's captured variables and --data-file's columns. Throws
  /// session::TemplateError.
  static std::optional<RequestTemplate> of(const client::PreparedRequest& prepared,
                                           session::TemplateNames names = {});

  /// Writes `base` with `values` rendered into `copy` (its buffers reused) and returns it.
  const client::PreparedRequest& render(const client::PreparedRequest& base,
                                        session::UserValues& values,
                                        client::RequestCopy& copy) const;

 private:
  // HTTP/1.1: the head up to Content-Length's digits and after them (only `head` without a
  // length to fill in), and the body.
  session::Template head_;
  std::optional<session::Template> head_after_length_;
  session::Template body_;
  // HTTP/2: each field's value (the content-length field's index, if the body varies).
  std::vector<session::Template> fields_;
  std::optional<std::size_t> length_field_;
  bool http2_ = false;
  std::shared_ptr<RequestTemplate> fallback_;  ///< the HTTP/1.1 fallback's, over TLS
};

}  // namespace stampede::server
