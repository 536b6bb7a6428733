// ResponseSink callbacks: copy the few things a report needs, count the body.
#include "server/client/response_sink.hpp"

#include <limits>

namespace stampede::client {

ResponseSink::ResponseSink(model::Response& response, bool keep_body)
    : response_(response), keep_body_(keep_body) {
  eager(true);
  header_limit(64 * 1024);
  body_limit(std::numeric_limits<std::uint64_t>::max());
}

void ResponseSink::on_response_impl(int code, boost::beast::string_view, int,
                                    boost::system::error_code&) {
  response_.status = code;
}

void ResponseSink::on_field_impl(http::field name, boost::beast::string_view,
                                 boost::beast::string_view value, boost::system::error_code&) {
  // assign() reuses the string's capacity: after the first response this allocates nothing.
  if (name == http::field::server) response_.server.assign(value.data(), value.size());
  if (name == http::field::location) response_.location.assign(value.data(), value.size());
}

std::size_t ResponseSink::on_body_impl(boost::beast::string_view body, boost::system::error_code&) {
  response_.body_bytes += body.size();
  if (keep_body_) response_.body.append(body.data(), body.size());
  return body.size();
}

}  // namespace stampede::client
