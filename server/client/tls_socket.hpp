// TLS for every client (HTTP/1.1, HTTP/2, WebSocket): OpenSSL straight on the non-blocking socket.
#pragma once

#include <openssl/ssl.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <iterator>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "server/client/client.hpp"
#include "server/client/connect.hpp"

namespace stampede::client {

/// What a TlsSocket's socket BIO reads and writes: the descriptor, and whether a recv() since
/// the socket's current read, write or handshake step began came back short. The socket was
/// empty then, so the BIO says would-block without asking it again: a read used to end with a
/// recv() that found nothing, one syscall of about four a wake-up.
struct TlsWire {
  int descriptor = -1;
  bool drained = false;
};

/// A TLS client connection whose SSL object reads and writes the TCP socket itself (a socket BIO),
/// where Asio's ssl::stream passes every byte through a BIO pair and its own buffers.
///
/// Why: Asio's stream holds two 17 KiB buffers of its own
/// and OpenSSL's BIO pair two more, on top of OpenSSL's record buffers, about 150 KB a connection
/// with the reader's; here OpenSSL's record buffers are the only ones, and SSL_MODE_RELEASE_BUFFERS
/// frees them whenever no record is under way, so an idle connection holds none. And the stream
/// hands over one record a read, each a completion of its own, and every write is an async
/// operation; here a read decrypts every record that arrived at once and a write goes straight to
/// the socket, waiting only when the socket does not take it.
///
/// Not thread-safe: one thread's connection. Reads and writes may interleave (OpenSSL allows it),
/// each retried after would_block once the socket is ready for what it asked (read_wait(),
/// write_wait()): a read may need to write (a TLS 1.3 KeyUpdate's answer), a write to read.
/// Errors are the error_codes Asio's stream gives for the same events (see failure()), so that
/// classify() and the failure log read them alike.
///
/// Every client over TLS uses it. -m's shared HTTP/2 connections call read_some() and
/// write_some() and wait themselves; the HTTP/1.1 client and the HTTP/2 client without -m read
/// and write with read_arrived() and write_all(); Beast's WebSocket stream (above
/// WebSocketTransport) and the HTTP/2 client's hold use it as Asio's AsyncStream
/// (async_read_some(), async_write_some()).
class TlsSocket {
 public:
  using Socket = net::ip::tcp::socket;
  using executor_type = Socket::executor_type;

  explicit TlsSocket(const net::any_io_executor& executor) : socket_(executor) {}
  ~TlsSocket();
  TlsSocket(const TlsSocket&) = delete;
  TlsSocket& operator=(const TlsSocket&) = delete;
  /// Moves the connection (no operation may be under way): the socket BIO follows its wire.
  TlsSocket(TlsSocket&& other) noexcept;
  TlsSocket& operator=(TlsSocket&&) = delete;

  /// Connects to `setup`'s server as open_stream() does (source addresses, TCP_NODELAY), then
  /// shakes hands: SNI for a host name, the certificate checked against the host when the
  /// context verifies, ALPN as the context offers it, `session` resumed if it holds one.
  /// Nullopt on success.
  net::awaitable<std::optional<OpenFailure>> open(const ClientSetup& setup, TlsSession& session);

  /// The TCP socket, the one the watchdog closes; closing it ends every wait on it.
  Socket& socket() { return socket_; }
  /// The server selected "h2" by ALPN.
  [[nodiscard]] bool alpn_selected_h2() const;
  /// The handshake resumed the session offered (an abbreviated handshake).
  [[nodiscard]] bool resumed() const { return ssl_ != nullptr && SSL_session_reused(ssl_) == 1; }

  /// Decrypts what has arrived into `buffer`, record after record, until it is full or OpenSSL
  /// needs the socket: would_block (see read_wait()) only when nothing was read. Unlike a
  /// socket's read_some, an error (the server's close, say) may come with bytes read before it:
  /// they are still the server's.
  std::size_t read_some(net::mutable_buffer buffer, boost::system::error_code& error);
  /// Encrypts and sends `data` as far as the socket takes it; would_block (see write_wait())
  /// when it took less. The rest must be written next, as it is (OpenSSL holds its first record).
  std::size_t write_some(net::const_buffer data, boost::system::error_code& error);
  /// What the last read that would block waits for: readable, or writable.
  [[nodiscard]] Socket::wait_type read_wait() const { return read_wait_; }
  /// What the last write that would block waits for: writable, or readable.
  [[nodiscard]] Socket::wait_type write_wait() const { return write_wait_; }

  /// Sends close_notify if the socket takes it now, without waiting for the server's.
  void notify_close();

  /// A client's request: write_some() until all of `data` went, waiting for the socket only
  /// while it takes nothing more. The error, and the bytes written.
  net::awaitable<std::tuple<boost::system::error_code, std::size_t>> write_all(
      net::const_buffer data);
  /// A client's read: what has arrived, decrypted now, waiting for the socket only while nothing
  /// has. Bytes that came with an error come without it: the next read gives it.
  net::awaitable<std::tuple<boost::system::error_code, std::size_t>> read_arrived(
      net::mutable_buffer buffer);

  /// Asio's AsyncReadStream (for Beast, and the HTTP/2 client's hold): read_some() into the
  /// first non-empty buffer, waiting for the socket while nothing has arrived. Bytes that came
  /// with an error come first, without it: the next read gives the error (a fatal one is kept,
  /// the server's close_notify is read again). Each completes through the executor, so a client
  /// in a hurry uses read_arrived() and write_all(), which do not.
  template <class Buffers, class Token>
  auto async_read_some(const Buffers& buffers, Token&& token) {
    return net::async_compose<Token, void(boost::system::error_code, std::size_t)>(
        Transfer<Buffers, true>{*this, buffers}, token, socket_);
  }
  /// Asio's AsyncWriteStream: write_some() of the buffers, gathered into one (up to 16 KiB) so
  /// that a frame's header and payload go in one record, waiting while the socket takes nothing.
  template <class Buffers, class Token>
  auto async_write_some(const Buffers& buffers, Token&& token) {
    return net::async_compose<Token, void(boost::system::error_code, std::size_t)>(
        Transfer<Buffers, false>{*this, buffers}, token, socket_);
  }
  executor_type get_executor() noexcept { return socket_.get_executor(); }

  /// The thread's scratch buffer (16 KiB), filled and read within one call: what a gathered
  /// write copies, what a teardown drops. Allocated at its first use, one for every template
  /// here: a thread_local array in a template would be static TLS, which every thread of the
  /// process allocates at its start (16 KiB an instantiation), whether it uses TLS or not.
  static net::mutable_buffer scratch();

 private:
  net::awaitable<boost::system::error_code> shake_hands(const ClientSetup& setup,
                                                        TlsSession& session);
  boost::system::error_code prepare(const ClientSetup& setup);
  template <class Step, class Over>
  std::size_t transfer(std::size_t size, Socket::wait_type& wait, boost::system::error_code& error,
                       Step step, Over over);
  template <class Call>
  int call(Call call);
  boost::system::error_code failure(int result, Socket::wait_type& wait) const;
  [[nodiscard]] bool begin(boost::system::error_code& error);
  void remember(const boost::system::error_code& error);

  /// async_read_some()'s and async_write_some()'s operation: the step, and waits while it would
  /// block. An operation that completes without waiting posts its completion, as Asio's own
  /// socket operations do, so that no handler runs inside the call that started it.
  template <class Buffers, bool Read>
  struct Transfer {
    Transfer(TlsSocket& on, const Buffers& what) : stream(on), buffers(what) {}

    TlsSocket& stream;
    Buffers buffers;
    bool waited = false;
    bool over = false;
    boost::system::error_code error;
    std::size_t n = 0;

    template <class Self>
    void operator()(Self& self, boost::system::error_code wait_error = {}) {
      if (over) return self.complete(error, n);
      if (wait_error) return self.complete(wait_error, 0);
      if constexpr (Read) {
        n = stream.read_some(first_buffer(buffers), error);
      } else {
        n = stream.write_some(gathered(buffers), error);
      }
      if (n == 0 && error == net::error::would_block) {
        waited = true;
        const auto wait = Read ? stream.read_wait_ : stream.write_wait_;
        return stream.socket_.async_wait(wait, std::move(self));
      }
      if (n > 0) error = {};  // a partial write, or bytes before an error: the rest comes next
      if (waited) return self.complete(error, n);
      over = true;
      net::post(stream.socket_.get_executor(), std::move(self));
    }
  };

  template <class Buffers>
  static net::mutable_buffer first_buffer(const Buffers& buffers) {
    for (auto it = net::buffer_sequence_begin(buffers); it != net::buffer_sequence_end(buffers);
         ++it) {
      if (net::mutable_buffer(*it).size() > 0) return *it;
    }
    return {};
  }
  /// The first buffer if it is the only one, or large; else as much of the sequence as fits in
  /// the thread's scratch, copied there. A retry after a wait gathers the same bytes again
  /// (OpenSSL accepts a moved write buffer: SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER).
  template <class Buffers>
  static net::const_buffer gathered(const Buffers& buffers) {
    const auto begin = net::buffer_sequence_begin(buffers);
    const auto end = net::buffer_sequence_end(buffers);
    if (begin == end) return {};
    const net::const_buffer first = *begin;
    const auto into = scratch();
    if (std::next(begin) == end || first.size() >= into.size()) return first;
    return {into.data(), net::buffer_copy(into, buffers)};
  }

  Socket socket_;
  TlsWire wire_;
  SSL* ssl_ = nullptr;
  int errno_ = 0;                    ///< errno right after the last SSL call
  boost::system::error_code fatal_;  ///< the error a read or write failed with for good
  Socket::wait_type read_wait_ = Socket::wait_read;
  Socket::wait_type write_wait_ = Socket::wait_write;
  /// The last read emptied the socket (its recv() came back short) and left OpenSSL nothing.
  bool read_emptied_ = false;
};

/// `Stream` is a TlsSocket: its reads and writes go through OpenSSL on the socket itself
/// (read_arrived(), write_all()), where a TcpStream's go through Asio's operations.
template <class Stream>
constexpr bool over_tls = std::is_same_v<Stream, TlsSocket>;

/// open_stream() for a TlsSocket: makes it, connects and shakes hands. Nullopt on success.
net::awaitable<std::optional<OpenFailure>> open_stream(std::optional<TlsSocket>& stream,
                                                       net::any_io_executor executor,
                                                       const ClientSetup& setup,
                                                       TlsSession& session);

/// The TCP socket under `stream`, the one the watchdog closes.
inline TcpStream& tcp_socket(TlsSocket& stream) { return stream.socket(); }

/// The server selected "h2" by ALPN on `stream` (not const: so that it, not the template for
/// Asio's streams, is the better match).
inline bool alpn_selected_h2(TlsSocket& stream) { return stream.alpn_selected_h2(); }

}  // namespace stampede::client
