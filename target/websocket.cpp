// The target server's WebSocket connections: Beast's stream, taken over from our HTTP parser.
//
// Why Beast's websocket::stream and not framing of our own: it answers pings, closes (1002 on a
// protocol error, 1007 on invalid UTF-8, 1009 past read_message_max) and unmasks as RFC 6455
// says, and its per-connection state is small enough. Measured with 15,000 idle connections
// (docs/benchmarks.md, "Built-in target: WebSocket connections"): see there for the figure.
// Two choices keep it small:
// - permessage-deflate is compiled out (the `false` of the stream type): no zlib state;
// - between messages the connection waits in a read with an empty buffer, which returns once
//   the next message's first frame header is in Beast's own 1,536-byte buffer. A read into a
//   flat_buffer would first reserve 1,536 bytes of that buffer, per idle connection; the
//   message's buffer lives only while the message is answered.
#include "target/websocket.hpp"

#include <string_view>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "target/acc.hpp"

namespace stampede::target {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using net::ip::tcp;

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

/// `false`: without permessage-deflate; a client offering it gets plain frames.
using WebSocket = websocket::stream<tcp::socket, false>;

// GCC 12 miscompiles `if (co_await f())`: every awaited result is a statement of its own.

void configure(WebSocket& ws, std::chrono::milliseconds close_timeout) {
  websocket::stream_base::timeout timeout{};
  timeout.handshake_timeout = close_timeout;
  // Held connections are the point: no idle timeout, no keep-alive pings from our side.
  timeout.idle_timeout = websocket::stream_base::none();
  timeout.keep_alive_pings = false;
  ws.set_option(timeout);
  ws.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& response) { response.set(http::field::server, server_name); }));
  ws.read_message_max(max_message_bytes);
  // One frame per answer, one write. (write_buffer_bytes is not set: Beast's write buffer
  // serves masking and deflate only, which a server without deflate never does.)
  ws.auto_fragment(false);
}

/// The upgrade request rebuilt for Beast's accept, which checks it again and answers 101: our
/// parser read the original in place and kept only what the handshake needs. Allocates, once
/// per connection.
http::request<http::empty_body> upgrade_request(const WebSocketKey& key) {
  http::request<http::empty_body> request(http::verb::get, "/", 11);
  request.set(http::field::host, "target");  // Beast requires one; the HTTP routes ignore it
  request.set(http::field::connection, "Upgrade");
  request.set(http::field::upgrade, "websocket");
  request.set(http::field::sec_websocket_key, std::string_view(key.data(), key.size()));
  request.set(http::field::sec_websocket_version, "13");
  return request;
}

/// Sends the 101. A coroutine of its own so that the request, needed once, is not kept in the
/// frame of serve_websocket, which lives as long as the connection.
net::awaitable<bool> accept(WebSocket* ws, WebSocketKey key) {
  const auto [ec] = co_await ws->async_accept(upgrade_request(key), use_tuple);
  co_return !ec;
}

/// An empty buffer to wait for a frame header with. Not a null one: Beast's UTF-8 check of a
/// text frame computes `data + size - 7`, which a null pointer turns into a wild one (it
/// crashed). Nothing is ever written to it, so every connection may share it.
net::mutable_buffer nothing() {
  static char none = 0;
  return {&none, 0};
}

/// Reads the rest of the message whose first frame header was just read, then answers it.
net::awaitable<bool> answer_message(WebSocket* ws, Page page) {
  beast::flat_buffer message;  // freed on return: a connection between messages holds none
  if (!ws->is_message_done()) {
    const auto [ec, size] = co_await ws->async_read(message, use_tuple);
    if (ec) co_return false;
  }
  if (page == Page::acc) {
    const auto payload = message.cdata();
    const auto reply = acc_reply(
        std::string_view(static_cast<const char*>(payload.data()), payload.size()), ws->got_text());
    ws->text(true);
    const auto [ec, written] = co_await ws->async_write(net::buffer(reply), use_tuple);
    co_return !ec;
  }
  ws->text(ws->got_text());
  const auto [ec, written] = co_await ws->async_write(message.cdata(), use_tuple);
  co_return !ec;
}

}  // namespace

net::awaitable<void> serve_websocket(tcp::socket socket, Page page, WebSocketKey key,
                                     std::chrono::milliseconds close_timeout) {
  WebSocket ws(std::move(socket));
  configure(ws, close_timeout);
  const bool accepted = co_await accept(&ws, key);
  if (!accepted) co_return;
  for (;;) {
    // Completes once a data frame's header is read (pings, pongs and a close are handled
    // inside: a close is answered and ends the read with error::closed), with nothing copied.
    const auto [ec, none] = co_await ws.async_read_some(nothing(), use_tuple);
    if (ec) co_return;  // closed, refused (Beast sent the close frame), or the peer went away
    const bool answered = co_await answer_message(&ws, page);
    if (!answered) co_return;
  }
}

}  // namespace stampede::target
