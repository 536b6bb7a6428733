// An HTTP/1.x connection's state and its I/O, plain or TLS: for connection.cpp alone.
#pragma once

#include <array>
#include <chrono>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "target_server/connection.hpp"
#include "target_server/h2_connection.hpp"
#include "target_server/routes.hpp"

namespace stampede::target_server::connection_io {

namespace net = boost::asio;
using boost::system::error_code;
using net::ip::tcp;
using Clock = std::chrono::steady_clock;

inline constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

// GCC 12 miscompiles `if (co_await f())` (the coroutine crashes once f() completes), so every
// awaited condition here goes through a declaration: `if (const bool ok = co_await f(); !ok)`.

/// Past this many connections on a thread, plain reads wait for epoll to name their socket.
/// Asio takes at most 128 ready sockets from epoll per pass over its handlers, while a read
/// whose data is already there completes without epoll, in every pass: with more sockets ready
/// than that, those left in epoll waited tens of passes (seconds, with 5,000 users on one
/// thread) while the others were answered again and again. Up to here one epoll_wait returns
/// every ready socket (with room for the listener and Asio's own), and a read costs no
/// epoll_ctl. (TLS reads always go through the stream: its bytes are not the socket's.)
inline constexpr std::size_t reactor_read_threshold = 100;

/// Input room: a whole head (header_limit) plus whatever follows it in the same read.
inline constexpr std::size_t input_capacity = std::size_t{12} * 1024;
/// Responses gathered into one write; a longer pipelined burst is written in several.
inline constexpr std::size_t max_pending = 32;
/// When closing, unread input is drained (this much, this long at most): closing a socket with
/// unread data sends a reset, which can destroy the last response before the client reads it.
inline constexpr std::size_t linger_bytes = std::size_t{256} * 1024;
inline constexpr std::chrono::seconds linger_time{2};

/// True for a plain TCP connection.
template <class Stream>
inline constexpr bool is_plain = std::is_same_v<Stream, tcp::socket>;

inline tcp::socket& socket_of(tcp::socket& socket) { return socket; }
inline tcp::socket& socket_of(TlsStream& stream) { return stream.next_layer(); }

/// One connection's state, kept in its coroutine's frame: nothing is allocated per request.
template <class Stream>
struct Connection {
  Connection(Stream accepted, ConnectionSet* set)
      : stream(std::move(accepted)), pause(stream.get_executor()), connections(set) {
    entry.socket = &socket();
    error_code ignored;
    // For read_available(). Asio's first asynchronous operation would set it anyway: no extra
    // syscall.
    socket().non_blocking(true, ignored);
    touch();
    connections->join(entry);
  }
  ~Connection() { connections->leave(entry); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Moves the idle deadline forward: something just happened.
  void touch() { entry.deadline = connections->idle_deadline(Clock::now()); }
  /// The TCP socket, under TLS if there is TLS.
  tcp::socket& socket() { return socket_of(stream); }
  /// The input read and not parsed yet.
  [[nodiscard]] std::string_view unparsed() const { return {input.data() + begin, end - begin}; }

  Stream stream;
  net::steady_timer pause;  // /delay/{ms}
  ConnectionSet* connections;
  ConnectionSet::Entry entry;  // the idle sweep closes socket() once entry.deadline passes
  std::size_t begin = 0;       // unparsed input is input[begin, end)
  std::size_t end = 0;
  std::size_t pending_count = 0;  // answers (views of static bytes) awaiting write_pending()
  std::array<net::const_buffer, max_pending> pending;
  std::array<char, bytes_head_capacity> bytes_head;  // the one response head not pre-built
  std::array<char, input_capacity> input;
};

/// Queues `bytes` (static, or the connection's own) for the next write. The caller makes sure
/// there is a free slot.
template <class Stream>
void queue(Connection<Stream>& c, std::string_view bytes) {
  c.pending[c.pending_count++] = net::buffer(bytes);
}

// The operations below are plain functions returning Asio's awaitable: awaiting them directly
// adds no coroutine frame. With at most one frame of ours above each operation, Asio's
// per-thread frame cache recycles every frame, so a request allocates nothing.

/// Writes every queued response in one gathered write. The queue is emptied at once; the write
/// still views its entries, which stay untouched while the caller awaits it.
template <class Stream>
auto write_pending(Connection<Stream>& c) {
  const auto queued = std::span(c.pending.data(), c.pending_count);
  c.pending_count = 0;
  return net::async_write(c.stream, queued, use_tuple);
}

/// Reads more input behind the unparsed rest; call make_room() first.
template <class Stream>
auto read_more(Connection<Stream>& c) {
  c.touch();
  return c.stream.async_read_some(net::buffer(c.input.data() + c.end, c.input.size() - c.end),
                                  use_tuple);
}

/// Waits until epoll names the socket readable (a socket whose data is already there waits its
/// turn too, behind those named before it); then read_available().
inline auto wait_readable(Connection<tcp::socket>& c) {
  c.touch();
  return c.stream.async_wait(tcp::socket::wait_read, use_tuple);
}

/// Reads what is there without waiting (the socket is non-blocking); would_block if nothing.
inline std::size_t read_available(Connection<tcp::socket>& c, error_code& ec) {
  return c.stream.read_some(net::buffer(c.input.data() + c.end, c.input.size() - c.end), ec);
}

/// Moves the unparsed rest to the front of the buffer. False if it fills the buffer, which only
/// a chunk-size line can (heads stop at header_limit): such a client is given up on.
template <class Stream>
bool make_room(Connection<Stream>& c) {
  if (c.begin > 0) {
    std::memmove(c.input.data(), c.input.data() + c.begin, c.end - c.begin);
    c.end -= c.begin;
    c.begin = 0;
  }
  return c.end < c.input.size();
}

/// Answers what was parsed so far, then waits for more input.
template <class Stream>
net::awaitable<bool> refill(Connection<Stream>* c) {
  if (c->pending_count > 0) {
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  if (!make_room(*c)) co_return false;
  if constexpr (is_plain<Stream>) {
    if (c->connections->size() > reactor_read_threshold) {
      for (;;) {
        const auto [wait_ec] = co_await wait_readable(*c);
        if (wait_ec) co_return false;
        error_code ec;
        c->end += read_available(*c, ec);
        if (ec != net::error::would_block) co_return !ec;
      }
    }
  }
  const auto [ec, received] = co_await read_more(*c);
  c->end += received;
  co_return !ec;
}

/// Half-closes, then drains the peer's leftovers so the close does not reset the connection.
template <class Stream>
net::awaitable<void> linger(Connection<Stream>* c) {
  error_code ec;
  c->socket().shutdown(tcp::socket::shutdown_send, ec);
  c->entry.deadline = Clock::now() + linger_time;
  for (std::size_t drained = 0; !ec && drained < linger_bytes;) {
    const auto [read_ec, received] =
        co_await c->stream.async_read_some(net::buffer(c->input), use_tuple);
    ec = read_ec;
    drained += received;
  }
}

/// Answers the queued requests, then `page` (with `status`) for the one refused, then closes.
template <class Stream>
net::awaitable<void> refuse(Connection<Stream>* c, Page page, unsigned status) {
  queue(*c, prebuilt(page, status, Persistence::close).full);
  const auto [ec, written] = co_await write_pending(*c);
  if (!ec) co_await linger(c);
}

}  // namespace stampede::target_server::connection_io
