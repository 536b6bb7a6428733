// A WebSocket connection's TCP or TLS stream, whose closing handshake ends on our terms: Beast's
// own teardown waits for the server's TCP close and, if that fails (a reset, our deadline),
// reports the teardown's error in place of why the connection was closing.
#pragma once

#include <boost/asio/associated_allocator.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/compose.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "server/client/connect.hpp"
#include "server/client/tls_socket.hpp"

namespace stampede::client {

/// Told when a connection's closing handshake waits for the server's TCP close, so that the
/// wait can be bounded.
class TeardownWatch {
 public:
  virtual void teardown_started() = 0;

 protected:
  ~TeardownWatch() = default;
};

/// `Next` (TcpStream, TlsSocket) as Beast's websocket::stream sees it, but for the teardown:
/// that one reports success whatever its end, so that the read which closed the connection
/// reports what arrived first (the server's close frame, a message over --max-message, a
/// broken frame) rather than the reset or the timeout of the wait for the TCP close. It also
/// counts the bytes read and written, the upgrade and every frame's header included (above TLS
/// for wss://): what a WebSocket run transferred, as HTTP runs count heads and bodies.
template <class Next>
class WebSocketTransport {
 public:
  using executor_type = typename Next::executor_type;
  using next_layer_type = Next;

  WebSocketTransport(Next&& next, TeardownWatch& watch) : next_(std::move(next)), watch_(&watch) {}

  executor_type get_executor() noexcept { return next_.get_executor(); }
  Next& next_layer() noexcept { return next_; }
  const Next& next_layer() const noexcept { return next_; }

  template <class Buffers, class Handler>
  auto async_read_some(const Buffers& buffers, Handler&& handler) {
    return next_.async_read_some(
        buffers, Counted<std::decay_t<Handler>>{{std::forward<Handler>(handler)}, &bytes_read_});
  }
  template <class Buffers, class Handler>
  auto async_write_some(const Buffers& buffers, Handler&& handler) {
    return next_.async_write_some(
        buffers, Counted<std::decay_t<Handler>>{{std::forward<Handler>(handler)}, &bytes_written_});
  }

  /// Bytes read and written since the connection was made.
  [[nodiscard]] std::uint64_t bytes_read() const noexcept { return bytes_read_; }
  [[nodiscard]] std::uint64_t bytes_written() const noexcept { return bytes_written_; }

  /// Beast's teardown of the stream under it (shut down, then read to the server's close),
  /// bounded by the watch, its end reported as success.
  template <class Handler>
  friend void async_teardown(boost::beast::role_type role, WebSocketTransport& transport,
                             Handler&& handler) {
    transport.watch_->teardown_started();
    using boost::beast::websocket::async_teardown;
    async_teardown(role, transport.next_,
                   Succeeded<std::decay_t<Handler>>{{std::forward<Handler>(handler)}});
  }

 private:
  /// A handler wrapped: its executor and allocator are the wrapped one's.
  template <class Handler>
  struct Wrapped {
    Handler handler;
    using executor_type = boost::asio::associated_executor_t<Handler>;
    using allocator_type = boost::asio::associated_allocator_t<Handler>;
    executor_type get_executor() const noexcept {
      return boost::asio::get_associated_executor(handler);
    }
    allocator_type get_allocator() const noexcept {
      return boost::asio::get_associated_allocator(handler);
    }
  };

  /// Calls the handler with no error.
  template <class Handler>
  struct Succeeded : Wrapped<Handler> {
    void operator()(const boost::system::error_code& /*teardown's*/) {
      std::move(this->handler)(boost::system::error_code{});
    }
  };

  /// Adds what a read or a write moved to `bytes`, then calls the handler.
  template <class Handler>
  struct Counted : Wrapped<Handler> {
    std::uint64_t* bytes;
    void operator()(const boost::system::error_code& error, std::size_t n) {
      *bytes += n;
      std::move(this->handler)(error, n);
    }
  };

  Next next_;
  TeardownWatch* watch_;
  std::uint64_t bytes_read_ = 0;
  std::uint64_t bytes_written_ = 0;
};

/// async_teardown()'s operation over TLS: close_notify, then reads until the server's close.
struct TlsTeardown {
  TlsSocket& stream;
  bool started = false;

  template <class Self>
  void operator()(Self& self, boost::system::error_code error = {}, std::size_t /*n*/ = 0) {
    if (!started) {
      started = true;
      stream.notify_close();
    } else if (error) {
      return self.complete(error == net::error::eof ? boost::system::error_code{} : error);
    }
    stream.async_read_some(TlsSocket::scratch(), std::move(self));
  }
};

/// Beast's teardown of a wss:// connection once the close frames are exchanged: our
/// close_notify if the socket takes it now, then what the server still sends is read and
/// dropped until it closes (its close_notify, or the TCP close), as Beast's own teardown of a
/// TCP socket waits for the server's close. Found by argument-dependent lookup.
template <class Handler>
void async_teardown(boost::beast::role_type /*role*/, TlsSocket& stream, Handler&& handler) {
  net::async_compose<std::decay_t<Handler>, void(boost::system::error_code)>(TlsTeardown{stream},
                                                                             handler, stream);
}

/// Beast closes the lowest layer when a WebSocket times out or is cancelled while closing:
/// over TLS, the TCP socket under the TlsSocket. Found by argument-dependent lookup.
inline void beast_close_socket(TlsSocket& stream) {
  boost::system::error_code ignored;
  stream.socket().close(ignored);
}

/// The TCP socket under a WebSocket's transport, the one the watchdog closes.
template <class Next>
TcpStream& tcp_socket(WebSocketTransport<Next>& transport) {
  return tcp_socket(transport.next_layer());
}

}  // namespace stampede::client
