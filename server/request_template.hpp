// A prepared request with variables in it: parsed once, rendered into a user's copy each time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/client/prepared_request.hpp"
#include "server/session/template.hpp"

namespace stampede::server {

/// The templates of a request's wire form: HTTP/1.1's head and body, HTTP/2's field values and
/// body (its Content-Length follows the rendered body), or WebSocket's upgrade and message.
class RequestTemplate {
 public:
  /// The templates of `prepared`, or nullopt when it has no variable (a gRPC call's are in its
  /// metadata only); `names` are the run's captured variables and --data-file's columns.
  /// Throws session::TemplateError.
  static std::optional<RequestTemplate> of(const client::PreparedRequest& prepared,
                                           session::TemplateNames names = {});

  /// Writes `base` with `values` rendered into `copy` (its buffers reused) and returns it.
  const client::PreparedRequest& render(const client::PreparedRequest& base,
                                        session::UserValues& values,
                                        client::RequestCopy& copy) const;

 private:
  enum class Kind : unsigned char { http1, http2, websocket };

  bool read(const client::Http1Wire& wire, session::TemplateNames names);
  /// `message`: the body may have variables (not a gRPC call's protobuf).
  bool read(const client::Http2Wire& wire, bool message, session::TemplateNames names);
  bool read(const client::WebSocketWire& wire, session::TemplateNames names);
  void render(client::Http1Wire& wire, session::UserValues& values) const;
  void render(client::Http2Wire& wire, session::UserValues& values) const;
  void render(client::WebSocketWire& wire, session::UserValues& values) const;

  Kind kind_ = Kind::http1;
  // HTTP/1.1: the head up to Content-Length's digits and after them (only `head` without a
  // length to fill in), and the body. WebSocket: the upgrade's target, and the message.
  session::Template head_;
  std::optional<session::Template> head_after_length_;
  session::Template body_;
  // HTTP/2: each field's value (the content-length field's index, if the body varies).
  // WebSocket: each upgrade header's value.
  std::vector<session::Template> fields_;
  std::optional<std::size_t> length_field_;
  std::shared_ptr<RequestTemplate> fallback_;  ///< the HTTP/1.1 fallback's, over TLS
};

}  // namespace stampede::server
