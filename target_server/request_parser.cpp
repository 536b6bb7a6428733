// The target server's HTTP/1 request parser: routing on the request-line, dropping the rest.
#include "target_server/request_parser.hpp"

#include <algorithm>

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/rfc7230.hpp>

namespace stampede::target_server {

namespace http = boost::beast::http;
using boost::beast::error_code;

namespace {

bool is_base64_digit(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

}  // namespace

RequestParser::RequestParser() {
  header_limit(target_server::header_limit);
  // The body is thrown away as it arrives, so its size costs nothing: no limit.
  body_limit(boost::none);
  // Parse the body in the same put() as the header, so pipelined requests need no extra calls.
  eager(true);
}

void RequestParser::on_request_impl(http::verb method, boost::beast::string_view /*method_str*/,
                                    boost::beast::string_view target, int version,
                                    error_code& /*ec*/) {
  // The target views the caller's buffer only during this call: route it now.
  route_ = stampede::target_server::route(target);
  version_ = version;
  head_ = method == http::verb::head;
  upgrade_.get_http11 = method == http::verb::get && version >= 11;
}

void RequestParser::on_response_impl(int /*code*/, boost::beast::string_view /*reason*/,
                                     int /*version*/, error_code& /*ec*/) {}

void RequestParser::on_field_impl(http::field name, boost::beast::string_view name_string,
                                  boost::beast::string_view value, error_code& /*ec*/) {
  // Connection and Content-Length are tracked by basic_parser itself; Expect is ours.
  if (name == http::field::expect && version_ >= 11) {
    expect_continue_ = boost::beast::iequals(value, "100-continue");
  }
  // Beast has no name for Last-Event-ID; only /sse reads it.
  if (route_.page == Page::sse && boost::beast::iequals(name_string, "last-event-id")) {
    take_last_event_id(route_, {value.data(), value.size()});
  }
  // Plain requests pay a few comparisons: only a WebSocket page reads the WebSocket fields,
  // and only two fields can ask for h2c.
  if (is_websocket(route_.page)) {
    on_upgrade_field(name, value);
  } else if (name == http::field::upgrade || name == http::field::http2_settings) {
    on_h2c_field(name, value);
  }
}

void RequestParser::on_h2c_field(http::field name, boost::beast::string_view value) {
  if (name == http::field::upgrade) {
    upgrade_.h2c = upgrade_.h2c || http::token_list(value).exists("h2c");
    return;
  }
  // RFC 7540 3.2.1: exactly one HTTP2-Settings; a second one spoils the upgrade.
  const bool fits = upgrade_.h2_settings_size == 0 && value.size() <= h2_settings_capacity;
  upgrade_.h2_settings_size = fits ? static_cast<std::uint16_t>(value.size()) : 0;
  if (fits) std::copy(value.begin(), value.end(), upgrade_.h2_settings.begin());
}

void RequestParser::on_upgrade_field(http::field name, boost::beast::string_view value) {
  switch (name) {
    case http::field::upgrade:
      upgrade_.websocket = upgrade_.websocket || http::token_list(value).exists("websocket");
      break;
    case http::field::sec_websocket_version:
      upgrade_.version_13 = value == "13";
      break;
    case http::field::sec_websocket_key:
      upgrade_.key_size = 0;
      if (value.size() == upgrade_.key.size()) {
        std::copy(value.begin(), value.end(), upgrade_.key.begin());
        upgrade_.key_size = static_cast<std::uint8_t>(value.size());
      }
      break;
    default:
      break;
  }
}

bool RequestParser::valid_websocket_upgrade() const {
  // 16 bytes in base64: 22 digits, then the padding "==".
  const auto key = upgrade_.key_text();
  const bool key_ok = key.size() == 24 && key.ends_with("==") &&
                      std::all_of(key.begin(), key.end() - 2, is_base64_digit);
  return upgrade_.get_http11 && upgrade() && upgrade_.websocket && upgrade_.version_13 && key_ok;
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

}  // namespace stampede::target_server
