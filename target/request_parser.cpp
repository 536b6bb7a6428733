// The target server's HTTP/1 request parser: routing on the request-line, dropping the rest.
#include "target/request_parser.hpp"

#include <boost/beast/core/string.hpp>

namespace stampede::target {

namespace http = boost::beast::http;
using boost::beast::error_code;

RequestParser::RequestParser() {
  header_limit(target::header_limit);
  // The body is thrown away as it arrives, so its size costs nothing: no limit.
  body_limit(boost::none);
  // Parse the body in the same put() as the header, so pipelined requests need no extra calls.
  eager(true);
}

void RequestParser::on_request_impl(http::verb method, boost::beast::string_view /*method_str*/,
                                    boost::beast::string_view target, int version,
                                    error_code& /*ec*/) {
  // The target views the caller's buffer only during this call: route it now.
  route_ = stampede::target::route(target);
  version_ = version;
  head_ = method == http::verb::head;
}

void RequestParser::on_response_impl(int /*code*/, boost::beast::string_view /*reason*/,
                                     int /*version*/, error_code& /*ec*/) {}

void RequestParser::on_field_impl(http::field name, boost::beast::string_view /*name_string*/,
                                  boost::beast::string_view value, error_code& /*ec*/) {
  // Connection and Content-Length are tracked by basic_parser itself; Expect is ours.
  if (name == http::field::expect && version_ >= 11) {
    expect_continue_ = boost::beast::iequals(value, "100-continue");
  }
}

void RequestParser::on_header_impl(error_code& /*ec*/) {}

void RequestParser::on_body_init_impl(const boost::optional<std::uint64_t>& /*content_length*/,
                                      error_code& /*ec*/) {}

std::size_t RequestParser::on_body_impl(boost::beast::string_view body, error_code& /*ec*/) {
  return body.size();
}

void RequestParser::on_chunk_header_impl(std::uint64_t /*size*/,
                                         boost::beast::string_view /*extensions*/,
                                         error_code& /*ec*/) {}

std::size_t RequestParser::on_chunk_body_impl(std::uint64_t /*remain*/,
                                              boost::beast::string_view body, error_code& /*ec*/) {
  return body.size();
}

void RequestParser::on_finish_impl(error_code& /*ec*/) {}

}  // namespace stampede::target
