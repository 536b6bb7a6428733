// RequestTemplate: variables found in the prepared bytes, so every protocol detail of prepare()
// (defaults, omitted headers, HTTP/2's fields, WebSocket's upgrade) stays as it is, and
// Content-Length is redone.
#include "server/request_template.hpp"

#include <charconv>

namespace stampede::server {

namespace {

constexpr std::string_view length_name = "\r\nContent-Length: ";

void set_length(std::size_t length, std::string& out) {
  std::array<char, 24> digits{};
  const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), length).ptr;
  out.append(digits.data(), end);
}

}  // namespace

std::optional<RequestTemplate> RequestTemplate::of(const client::PreparedRequest& prepared,
                                                   session::TemplateNames names) {
  RequestTemplate parsed;
  bool varies = false;
  if (const auto* http1 = std::get_if<client::Http1Wire>(&prepared.wire)) {
    varies = parsed.read(*http1, names);
  } else if (const auto* http2 = std::get_if<client::Http2Wire>(&prepared.wire)) {
    varies = parsed.read(*http2, !prepared.grpc, names);
  } else {
    varies = parsed.read(std::get<client::WebSocketWire>(prepared.wire), names);
  }
  if (prepared.http1_fallback) {
    if (auto fallback = of(*prepared.http1_fallback, names)) {
      parsed.fallback_ = std::make_shared<RequestTemplate>(std::move(*fallback));
    }
  }
  if (!varies) return std::nullopt;
  return parsed;
}

bool RequestTemplate::read(const client::Http1Wire& wire, session::TemplateNames names) {
  const std::string_view bytes = wire.bytes;
  const auto head_end = bytes.find("\r\n\r\n") + 4;
  body_ = session::parse_template(bytes.substr(head_end), names);
  const auto length = bytes.find(length_name);
  if (session::has_template(bytes.substr(head_end)) && length < head_end) {
    const auto digits = length + length_name.size();
    const auto after = bytes.find("\r\n", digits);
    head_ = session::parse_template(bytes.substr(0, digits), names);
    head_after_length_ = session::parse_template(bytes.substr(after, head_end - after), names);
    session::place_variables(*head_after_length_, session::Place::header);
  } else {
    head_ = session::parse_template(bytes.substr(0, head_end), names);
  }
  session::place_variables(head_, session::Place::header, session::Place::target);
  return session::has_template(bytes);  // `$${` alone renders as `${`
}

bool RequestTemplate::read(const client::Http2Wire& wire, bool message,
                           session::TemplateNames names) {
  kind_ = Kind::http2;
  // A gRPC message is protobuf: a value put in would break its framing, so it has none.
  const bool body_varies = message && session::has_template(wire.body);
  body_ =
      body_varies ? session::parse_template(wire.body, names) : session::Template{{wire.body}, {}};
  bool varies = body_varies;
  for (std::size_t i = 0; i < wire.headers.size(); ++i) {
    const auto& [name, value] = wire.headers[i];
    fields_.push_back(session::parse_template(value, names));
    session::place_variables(fields_.back(),
                             name == ":path" ? session::Place::target : session::Place::header);
    varies = varies || session::has_template(value);
    if (name == "content-length" && body_varies) length_field_ = i;
  }
  return varies;
}

bool RequestTemplate::read(const client::WebSocketWire& wire, session::TemplateNames names) {
  kind_ = Kind::websocket;
  head_ = session::parse_template(wire.target, names);
  session::place_variables(head_, session::Place::target);
  body_ = session::parse_template(wire.message, names);
  bool varies = session::has_template(wire.target) || session::has_template(wire.message);
  for (const auto& [name, value] : wire.headers) {
    fields_.push_back(session::parse_template(value, names));
    session::place_variables(fields_.back(), session::Place::header);
    varies = varies || session::has_template(value);
  }
  return varies;
}

const client::PreparedRequest& RequestTemplate::render(const client::PreparedRequest& base,
                                                       session::UserValues& values,
                                                       client::RequestCopy& copy) const {
  auto& out = copy.request;
  out = base;
  switch (kind_) {
    case Kind::http1:
      render(std::get<client::Http1Wire>(out.wire), values);
      break;
    case Kind::http2:
      render(std::get<client::Http2Wire>(out.wire), values);
      break;
    case Kind::websocket:
      render(std::get<client::WebSocketWire>(out.wire), values);
      break;
  }
  if (fallback_) {
    if (!copy.fallback) copy.fallback = std::make_shared<client::RequestCopy>();
    const auto& fallback = fallback_->render(*base.http1_fallback, values, *copy.fallback);
    out.http1_fallback = std::shared_ptr<const client::PreparedRequest>(copy.fallback, &fallback);
  }
  return out;
}

void RequestTemplate::render(client::Http1Wire& wire, session::UserValues& values) const {
  thread_local std::string body;  // each thread renders one request at a time
  body.clear();
  session::render(body_, values, body);
  wire.bytes.clear();
  session::render(head_, values, wire.bytes);
  if (head_after_length_) {
    set_length(body.size(), wire.bytes);
    session::render(*head_after_length_, values, wire.bytes);
  }
  wire.bytes += body;
  wire.cookie_at = client::Http1Wire::unknown;  // found if a cookie is added
}

void RequestTemplate::render(client::Http2Wire& wire, session::UserValues& values) const {
  wire.body.clear();
  session::render(body_, values, wire.body);
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    auto& value = wire.headers[i].second;
    value.clear();
    if (length_field_ == i) {
      set_length(wire.body.size(), value);
    } else {
      session::render(fields_[i], values, value);
    }
  }
}

void RequestTemplate::render(client::WebSocketWire& wire, session::UserValues& values) const {
  wire.target.clear();
  session::render(head_, values, wire.target);
  if (!wire.ping) {
    wire.message.clear();
    session::render(body_, values, wire.message);
  }
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    auto& value = wire.headers[i].second;
    value.clear();
    session::render(fields_[i], values, value);
  }
}

}  // namespace stampede::server
