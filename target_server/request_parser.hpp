// The target server's HTTP/1 request parser: Beast's, keeping only what routing needs.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

#include <boost/beast/http/basic_parser.hpp>

#include "target_server/routes.hpp"

namespace stampede::target_server {

/// Largest request head (request-line and fields) accepted; beyond it the answer is 431.
inline constexpr std::uint32_t header_limit = 8 * 1024;

/// The longest HTTP2-Settings value kept: 32 settings in base64url (clients send 2 to 6).
inline constexpr std::size_t h2_settings_capacity = 256;

/// What an upgrade request says: to WebSocket on a WebSocket page (RFC 6455 4.2.1), or to
/// HTTP/2 on another (RFC 7540 3.2); the rest is the parser's.
struct UpgradeRequest {
  bool get_http11 = false;             ///< GET, HTTP/1.1 or later
  bool websocket = false;              ///< "websocket" among the Upgrade field's tokens
  bool version_13 = false;             ///< "Sec-WebSocket-Version: 13"
  std::array<char, 24> key{};          ///< Sec-WebSocket-Key, if it is 24 characters long
  std::uint8_t key_size = 0;           ///< 0: no key, or not 24 characters
  bool h2c = false;                    ///< "h2c" among the Upgrade field's tokens
  std::uint16_t h2_settings_size = 0;  ///< 0: no HTTP2-Settings, or a longer one than we keep
  /// HTTP2-Settings as sent; unset past h2_settings_size (a request that does not upgrade to
  /// h2c never pays for clearing it).
  std::array<char, h2_settings_capacity> h2_settings;
  /// The key as sent; valid() checks it.
  [[nodiscard]] std::string_view key_text() const { return {key.data(), key_size}; }
  /// HTTP2-Settings as sent.
  [[nodiscard]] std::string_view h2_settings_text() const {
    return {h2_settings.data(), h2_settings_size};
  }
};

/// Parses one request without storing fields or body, so a request allocates nothing: the
/// target is routed as soon as it is seen, bodies (sized or chunked) are counted and dropped.
/// Feed it one contiguous buffer per put(); make a fresh one (std::optional) per request.
class RequestParser final : public boost::beast::http::basic_parser<true> {
 public:
  RequestParser();

  /// The route of the request-target (and, for /sse, of its Last-Event-ID); valid once the
  /// header is done.
  [[nodiscard]] const Route& route() const { return route_; }
  /// True for HEAD: the answer carries the head only.
  [[nodiscard]] bool is_head() const { return head_; }
  /// True for an HTTP/1.0 request.
  [[nodiscard]] bool is_http10() const { return version_ == 10; }
  /// True once, if the client sent "Expect: 100-continue" and still waits for permission.
  bool take_expect_continue() { return std::exchange(expect_continue_, false); }
  /// The upgrade fields of a request to a WebSocket page (is_websocket(route().page)); other
  /// requests do not look at them. Valid once the header is done.
  [[nodiscard]] const UpgradeRequest& upgrade_request() const { return upgrade_; }
  /// True if the request asks for WebSocket ("Upgrade: websocket") on a WebSocket page: it gets
  /// the handshake, or the 400 of a bad upgrade, never the page's 426.
  [[nodiscard]] bool asks_websocket() const {
    return is_websocket(route_.page) && upgrade_.websocket;
  }
  /// True if the request asks to upgrade to WebSocket (asks_websocket()), or to h2c: "Upgrade:
  /// h2c" with "Connection: upgrade" and an HTTP2-Settings field, on a page that is not
  /// WebSocket's. One test on the request path, for both.
  [[nodiscard]] bool asks_upgrade() const {
    return upgrade_.websocket || (upgrade_.h2c && upgrade_.h2_settings_size > 0 && upgrade());
  }
  /// True if such a request is one RFC 6455 accepts: GET HTTP/1.1, "upgrade" in Connection,
  /// a key of 16 bytes in base64, version 13.
  [[nodiscard]] bool valid_websocket_upgrade() const;

 private:
  // Beast 1.81 hands out boost::core::string_view whatever BOOST_BEAST_USE_STD_STRING_VIEW says.
  void on_request_impl(boost::beast::http::verb method, boost::beast::string_view method_str,
                       boost::beast::string_view target, int version,
                       boost::beast::error_code& ec) override;
  void on_response_impl(int code, boost::beast::string_view reason, int version,
                        boost::beast::error_code& ec) override;
  void on_field_impl(boost::beast::http::field name, boost::beast::string_view name_string,
                     boost::beast::string_view value, boost::beast::error_code& ec) override;
  void on_header_impl(boost::beast::error_code& ec) override;
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                         boost::beast::error_code& ec) override;
  std::size_t on_body_impl(boost::beast::string_view body, boost::beast::error_code& ec) override;
  void on_chunk_header_impl(std::uint64_t size, boost::beast::string_view extensions,
                            boost::beast::error_code& ec) override;
  std::size_t on_chunk_body_impl(std::uint64_t remain, boost::beast::string_view body,
                                 boost::beast::error_code& ec) override;
  void on_finish_impl(boost::beast::error_code& ec) override;

  /// Reads the fields of an upgrade; called for requests to a WebSocket page only.
  void on_upgrade_field(boost::beast::http::field name, boost::beast::string_view value);
  /// Reads the fields of an upgrade to h2c; called for requests to other pages.
  void on_h2c_field(boost::beast::http::field name, boost::beast::string_view value);

  Route route_;
  UpgradeRequest upgrade_;
  int version_ = 11;
  bool head_ = false;
  bool expect_continue_ = false;
};

}  // namespace stampede::target_server
