// The target server's WebSocket connections: Beast's stream, taken over from our HTTP parser.
//
// Why Beast's websocket::stream and not framing of our own: it answers pings, closes (1002 on a
// protocol error, 1007 on invalid UTF-8, 1009 past read_message_max) and unmasks as RFC 6455
// says, and its state is small enough: an idle connection costs the server 3.4 KiB in all, with
// 15,000 held (docs/benchmarks.md, "Built-in target: WebSocket connections"), 2.5 KB of it
// Beast's. What keeps the rest small:
// - permessage-deflate is compiled out (the `false` of the stream type): no zlib state;
// - a connection is a session of callbacks, not a coroutine (Session says why);
// - between messages it waits in a read with an empty buffer, which returns once the next
//   message's first frame header is in Beast's own 1,536-byte buffer: a read into a flat_buffer
//   would first reserve 1,536 bytes of it. The message's buffer lives while it is answered;
// - that waiting read's operation is allocated at its own size (ExactAllocator).
#include "target_server/websocket.hpp"

#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "target_server/acc.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using net::ip::tcp;

/// `false`: without permessage-deflate; a client offering it gets plain frames.
template <class NextLayer>
using WebSocket = websocket::stream<NextLayer, false>;

template <class NextLayer>
void configure(WebSocket<NextLayer>& ws, std::chrono::milliseconds close_timeout) {
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

/// An empty buffer to wait for a frame header with. Not a null one: Beast's UTF-8 check of a
/// text frame computes `data + size - 7`, which a null pointer turns into a wild one (it
/// crashed). Nothing is ever written to it, so every connection may share it.
net::mutable_buffer nothing() {
  static char none = 0;
  return {&none, 0};
}

/// Plain new and delete, bound to the handler of the read an idle connection waits in, so that
/// its operation gets a block of its own size (about 300 bytes). With no allocator of its own,
/// Asio takes a block from its per-thread cache of freed ones whatever their size (the 101's
/// write left 866 bytes), and the idle connection kept it for as long as it waited.
template <class T>
struct ExactAllocator {
  using value_type = T;
  ExactAllocator() = default;
  template <class U>
  explicit(false) ExactAllocator(const ExactAllocator<U>& /*other*/) noexcept {}
  T* allocate(std::size_t count) { return static_cast<T*>(::operator new(count * sizeof(T))); }
  void deallocate(T* pointer, std::size_t /*count*/) noexcept { ::operator delete(pointer); }
  template <class U>
  bool operator==(const ExactAllocator<U>& /*other*/) const noexcept {
    return true;
  }
};

/// One WebSocket connection. Callbacks, not a coroutine: each pending operation's handler
/// holds the session (a shared_ptr), so a connection waiting for its next message holds Beast's
/// state, this object and the one pending read, and no coroutine frame. A coroutine waiting in
/// that read held three (its own, co_spawn's, and Asio's for the operation), a few hundred bytes
/// each: 5.4 KiB per idle connection in all, against 3.4 KiB now.
template <class NextLayer>
class Session : public std::enable_shared_from_this<Session<NextLayer>> {
 public:
  Session(NextLayer stream, Page page) : ws_(std::move(stream)), page_(page) {}

  /// Answers the upgrade (101), then serves messages until the connection ends.
  void start(const WebSocketKey& key, std::chrono::milliseconds close_timeout) {
    configure(ws_, close_timeout);
    // Beast builds its response from the request before this call returns: a temporary will do.
    ws_.async_accept(upgrade_request(key), [self = this->shared_from_this()](beast::error_code ec) {
      if (!ec) self->wait_for_message();
    });
  }

 private:
  /// Waits with an empty buffer: the read completes once a data frame's header is read (pings,
  /// pongs and a close are handled inside; a close is answered and ends it with
  /// error::closed), with nothing copied. An error ends the session: closed, refused (Beast
  /// sent the close frame), or the peer went away.
  void wait_for_message() {
    auto on_header = [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (!ec) self->read_message();
    };
    ws_.async_read_some(nothing(), net::bind_allocator(ExactAllocator<void>(), on_header));
  }

  /// Reads the rest of the message whose first frame header was just read.
  void read_message() {
    if (ws_.is_message_done()) {  // an empty message: its one frame is read
      answer();
      return;
    }
    ws_.async_read(message_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (!ec) self->answer();
    });
  }

  /// /echo sends the message back as it came, /acc its reply; then frees the buffers, so that a
  /// connection between messages holds none.
  void answer() {
    auto reply = message_.cdata();
    if (page_ == Page::acc) {
      reply_ = acc_reply(std::string_view(static_cast<const char*>(reply.data()), reply.size()),
                         ws_.got_text());
      reply = net::buffer(reply_);
      ws_.text(true);
    } else {
      ws_.text(ws_.got_text());
    }
    ws_.async_write(reply, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      self->message_.clear();
      self->message_.shrink_to_fit();
      std::string().swap(self->reply_);
      if (!ec) self->wait_for_message();
    });
  }

  WebSocket<NextLayer> ws_;
  Page page_;
  beast::flat_buffer message_;  // the message being answered; empty and unallocated otherwise
  std::string reply_;           // /acc's answer while it is written
};

}  // namespace

void serve_websocket(tcp::socket socket, Page page, const WebSocketKey& key,
                     std::chrono::milliseconds close_timeout) {
  std::make_shared<Session<tcp::socket>>(std::move(socket), page)->start(key, close_timeout);
}

void serve_websocket(TlsStream stream, Page page, const WebSocketKey& key,
                     std::chrono::milliseconds close_timeout) {
  std::make_shared<Session<TlsStream>>(std::move(stream), page)->start(key, close_timeout);
}

}  // namespace stampede::target_server
