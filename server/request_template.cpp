// RequestTemplate: variables found in the prepared bytes, so every protocol detail of prepare()
// (defaults, omitted headers, HTTP/2's fields) stays as it is, and Content-Length is redone.
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
    const std::string_view bytes = http1->bytes;
    const auto head_end = bytes.find("\r\n\r\n") + 4;
    parsed.body_ = session::parse_template(bytes.substr(head_end), names);
    const auto length = bytes.find(length_name);
    if (session::has_template(bytes.substr(head_end)) && length < head_end) {
      const auto digits = length + length_name.size();
      const auto after = bytes.find("\r\n", digits);
      parsed.head_ = session::parse_template(bytes.substr(0, digits), names);
      parsed.head_after_length_ =
          session::parse_template(bytes.substr(after, head_end - after), names);
    } else {
      parsed.head_ = session::parse_template(bytes.substr(0, head_end), names);
    }
    session::place_variables(parsed.head_, session::Place::header, session::Place::target);
    if (parsed.head_after_length_) {
      session::place_variables(*parsed.head_after_length_, session::Place::header);
    }
    varies = session::has_template(bytes);  // `$${` alone renders as `${`
  } else if (const auto* http2 = std::get_if<client::Http2Wire>(&prepared.wire)) {
    parsed.http2_ = true;
    parsed.body_ = session::parse_template(http2->body, names);
    varies = session::has_template(http2->body);
    for (std::size_t i = 0; i < http2->headers.size(); ++i) {
      parsed.fields_.push_back(session::parse_template(http2->headers[i].second, names));
      session::place_variables(parsed.fields_.back(), http2->headers[i].first == ":path"
                                                          ? session::Place::target
                                                          : session::Place::header);
      varies = varies || session::has_template(http2->headers[i].second);
      if (http2->headers[i].first == "content-length" && session::has_template(http2->body)) {
        parsed.length_field_ = i;
      }
    }
  }
  if (prepared.http1_fallback) {
    if (auto fallback = of(*prepared.http1_fallback, names)) {
      parsed.fallback_ = std::make_shared<RequestTemplate>(std::move(*fallback));
    }
  }
  if (!varies) return std::nullopt;
  return parsed;
}

const client::PreparedRequest& RequestTemplate::render(const client::PreparedRequest& base,
                                                       session::UserValues& values,
                                                       client::RequestCopy& copy) const {
  auto& out = copy.request;
  out = base;
  if (http2_) {
    auto& wire = std::get<client::Http2Wire>(out.wire);
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
  } else {
    auto& wire = std::get<client::Http1Wire>(out.wire);
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
  if (fallback_) {
    if (!copy.fallback) copy.fallback = std::make_shared<client::RequestCopy>();
    const auto& fallback = fallback_->render(*base.http1_fallback, values, *copy.fallback);
    out.http1_fallback = std::shared_ptr<const client::PreparedRequest>(copy.fallback, &fallback);
  }
  return out;
}

}  // namespace stampede::server
