// One client connection of the target server: parse requests out of one buffer, batch answers.
#include "target/connection.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <span>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>

#include "target/request_parser.hpp"
#include "target/routes.hpp"
#include "target/websocket.hpp"

namespace stampede::target {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;
using boost::system::error_code;
using net::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

// GCC 12 miscompiles `if (co_await f())` (the coroutine crashes once f() completes), so every
// awaited condition here goes through a declaration: `if (const bool ok = co_await f(); !ok)`.

/// Past this many connections on a thread, reads wait for epoll to name their socket. Asio
/// takes at most 128 ready sockets from epoll per pass over its handlers, while a read whose
/// data is already there completes without epoll, in every pass: with more sockets ready than
/// that, those left in epoll waited tens of passes (seconds, with 5,000 users on one thread)
/// while the others were answered again and again. Up to here one epoll_wait returns every
/// ready socket (with room for the listener and Asio's own), and a read costs no epoll_ctl.
constexpr std::size_t reactor_read_threshold = 100;

/// Input room: a whole head (header_limit) plus whatever follows it in the same read.
constexpr std::size_t input_capacity = std::size_t{12} * 1024;
/// Responses gathered into one write; a longer pipelined burst is written in several.
constexpr std::size_t max_pending = 32;
/// When closing, unread input is drained (this much, this long at most): closing a socket with
/// unread data sends a reset, which can destroy the last response before the client reads it.
constexpr std::size_t linger_bytes = std::size_t{256} * 1024;
constexpr std::chrono::seconds linger_time{2};

/// One connection's state, kept in its coroutine's frame: nothing is allocated per request.
struct Connection {
  Connection(tcp::socket accepted, ConnectionSet* set)
      : socket(std::move(accepted)), pause(socket.get_executor()), connections(set) {
    entry.socket = &socket;
    error_code ignored;
    // For read_available(). Asio's first asynchronous operation would set it anyway: no extra
    // syscall.
    socket.non_blocking(true, ignored);
    touch();
    connections->join(entry);
  }
  ~Connection() { connections->leave(entry); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Moves the idle deadline forward: something just happened.
  void touch() { entry.deadline = Clock::now() + connections->idle_timeout(); }

  tcp::socket socket;
  net::steady_timer pause;  // /delay/{ms}
  ConnectionSet* connections;
  ConnectionSet::Entry entry;  // the idle sweep closes `socket` once entry.deadline passes
  std::size_t begin = 0;       // unparsed input is input[begin, end)
  std::size_t end = 0;
  std::size_t pending_count = 0;  // answers (views of static bytes) awaiting write_pending()
  std::array<net::const_buffer, max_pending> pending;
  std::array<char, bytes_head_capacity> bytes_head;  // the one response head not pre-built
  std::array<char, input_capacity> input;
};

/// Queues `bytes` (static, or the connection's own) for the next write. The caller makes sure
/// there is a free slot.
void queue(Connection& c, std::string_view bytes) {
  c.pending[c.pending_count++] = net::buffer(bytes);
}

// The two operations below are plain functions returning Asio's awaitable: awaiting them
// directly adds no coroutine frame. With at most one frame of ours above each operation, Asio's
// per-thread frame cache (two blocks) recycles every frame, so a request allocates nothing.

/// Writes every queued response in one gathered write. The queue is emptied at once; the write
/// still views its entries, which stay untouched while the caller awaits it.
auto write_pending(Connection& c) {
  const auto queued = std::span(c.pending.data(), c.pending_count);
  c.pending_count = 0;
  return net::async_write(c.socket, queued, use_tuple);
}

/// Reads more input behind the unparsed rest; call make_room() first.
auto read_more(Connection& c) {
  c.touch();
  return c.socket.async_read_some(net::buffer(c.input.data() + c.end, c.input.size() - c.end),
                                  use_tuple);
}

/// Waits until epoll names the socket readable (a socket whose data is already there waits its
/// turn too, behind those named before it); then read_available().
auto wait_readable(Connection& c) {
  c.touch();
  return c.socket.async_wait(tcp::socket::wait_read, use_tuple);
}

/// Reads what is there without waiting (the socket is non-blocking); would_block if nothing.
std::size_t read_available(Connection& c, error_code& ec) {
  return c.socket.read_some(net::buffer(c.input.data() + c.end, c.input.size() - c.end), ec);
}

/// Moves the unparsed rest to the front of the buffer. False if it fills the buffer, which only
/// a chunk-size line can (heads stop at header_limit): such a client is given up on.
bool make_room(Connection& c) {
  if (c.begin > 0) {
    std::memmove(c.input.data(), c.input.data() + c.begin, c.end - c.begin);
    c.end -= c.begin;
    c.begin = 0;
  }
  return c.end < c.input.size();
}

/// Answers what was parsed so far, then waits for more input.
net::awaitable<bool> refill(Connection* c) {
  if (c->pending_count > 0) {
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  if (!make_room(*c)) co_return false;
  if (c->connections->size() <= reactor_read_threshold) {
    const auto [ec, received] = co_await read_more(*c);
    c->end += received;
    co_return !ec;
  }
  for (;;) {
    const auto [wait_ec] = co_await wait_readable(*c);
    if (wait_ec) co_return false;
    error_code ec;
    c->end += read_available(*c, ec);
    if (ec != net::error::would_block) co_return !ec;
  }
}

/// Half-closes, then drains the peer's leftovers so the close does not reset the connection.
net::awaitable<void> linger(Connection* c) {
  error_code ec;
  c->socket.shutdown(tcp::socket::shutdown_send, ec);
  c->entry.deadline = Clock::now() + linger_time;
  for (std::size_t drained = 0; !ec && drained < linger_bytes;) {
    const auto [read_ec, received] =
        co_await c->socket.async_read_some(net::buffer(c->input), use_tuple);
    ec = read_ec;
    drained += received;
  }
}

/// Answers the queued requests, then `page` (with `status`) for the one refused, then closes.
net::awaitable<void> refuse(Connection* c, Page page, unsigned status) {
  queue(*c, prebuilt(page, status, Persistence::close).full);
  const auto [ec, written] = co_await write_pending(*c);
  if (!ec) co_await linger(c);
}

/// Waits for /delay/{ms}, having sent the earlier answers: they should not wait for this one.
net::awaitable<bool> wait_delay(Connection* c, std::chrono::milliseconds delay) {
  if (c->pending_count > 0) {
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  c->entry.deadline = Clock::now() + delay + c->connections->idle_timeout();
  c->pause.expires_after(delay);
  const auto [ec] = co_await c->pause.async_wait(use_tuple);
  co_return !ec;
}

/// A /bytes response: its head (with the queued answers), then the body from the shared filler
/// block, piece by piece.
net::awaitable<bool> send_bytes(Connection* c, std::uint64_t size, bool head_only,
                                Persistence persistence) {
  if (c->pending_count + 2 > max_pending) {
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  const auto head_size = format_bytes_head(size, persistence, c->bytes_head);
  queue(*c, std::string_view(c->bytes_head.data(), head_size));
  const auto block = filler();
  auto left = head_only ? 0 : size;
  do {
    const auto piece = std::min<std::uint64_t>(left, block.size());
    if (piece > 0) queue(*c, std::string_view(block.data(), piece));
    left -= piece;
    c->touch();  // a slow reader of a large body is not idle while it makes progress
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  } while (left > 0);
  co_return true;
}

Persistence persistence_of(const RequestParser& parser) {
  if (!parser.keep_alive()) return Persistence::close;
  return parser.is_http10() ? Persistence::keep_alive_http10 : Persistence::keep_alive;
}

/// RFC 9112 2.2: empty lines before a request-line are ignored (some clients add CRLF after
/// a body).
void skip_blank_lines(Connection& c) {
  while (c.begin < c.end && (c.input[c.begin] == '\r' || c.input[c.begin] == '\n')) ++c.begin;
}

/// What the parser made of the buffered input.
enum class Parsed { need_more, complete, malformed, too_large };

/// Feeds the buffered input to `parser` until a request is complete or the input runs out.
/// Queues "100 Continue" when a client waits for it; the caller leaves a free slot.
Parsed parse(Connection& c, RequestParser& parser) {
  for (;;) {
    if (!parser.got_some()) skip_blank_lines(c);
    if (c.begin == c.end) return Parsed::need_more;
    error_code ec;
    const auto used = parser.put(net::buffer(c.input.data() + c.begin, c.end - c.begin), ec);
    c.begin += used;
    if (ec == http::error::need_more) return Parsed::need_more;
    if (ec) return ec == http::error::header_limit ? Parsed::too_large : Parsed::malformed;
    if (parser.is_done()) return Parsed::complete;
    if (parser.is_header_done() && parser.take_expect_continue()) queue(c, continue_response);
    if (used == 0) return Parsed::need_more;
  }
}

/// Writes the last answers and closes. A client that asked to close sends nothing more:
/// linger only if it already did.
net::awaitable<void> finish(Connection* c) {
  const auto [ec, written] = co_await write_pending(*c);
  if (!ec && c->begin < c->end) co_await linger(c);
}

/// Hands a valid upgrade to WebSocket over to serve_websocket(), whose operations own the socket
/// from then on: this coroutine then ends, freeing the HTTP state (the input buffer is most of it)
/// and leaving the idle sweep's set, so that a held WebSocket connection costs only its own state
/// and is never swept. A bad upgrade gets 400. So do bytes after the upgrade request: a client must
/// wait for the 101 (RFC 6455 4.1), and Beast's stream starts with an empty buffer.
net::awaitable<void> upgrade(Connection* c, Page page, const RequestParser* parser) {
  if (!parser->valid_websocket_upgrade() || c->begin < c->end) {
    co_await refuse(c, Page::bad_upgrade, 400);
    co_return;
  }
  if (c->pending_count > 0) {  // the answers to requests pipelined before the upgrade
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return;
  }
  serve_websocket(std::move(c->socket), page, parser->upgrade_request().key,
                  c->connections->idle_timeout());
}

/// Parses request after request out of the input buffer, answering each in order; answers
/// of pipelined requests are written together, when the input runs out.
net::awaitable<void> serve_requests(Connection* c) {
  std::optional<RequestParser> parser;
  for (;;) {
    if (c->pending_count == max_pending) {
      const auto [ec, written] = co_await write_pending(*c);
      if (ec) co_return;
    }
    if (!parser) parser.emplace();
    const auto parsed = parse(*c, *parser);
    if (parsed == Parsed::malformed || parsed == Parsed::too_large) {
      co_await refuse(c, Page::status, parsed == Parsed::too_large ? 431 : 400);
      co_return;
    }
    if (parsed == Parsed::need_more) {
      if (const bool ok = co_await refill(c); !ok) co_return;
      continue;
    }
    const auto persistence = persistence_of(*parser);
    const Route route = parser->route();
    const bool head_only = parser->is_head();
    if (parser->asks_websocket()) {
      co_await upgrade(c, route.page, &*parser);
      co_return;
    }
    parser.reset();
    if (route.delay.count() > 0) {
      if (const bool ok = co_await wait_delay(c, route.delay); !ok) co_return;
    }
    if (route.page == Page::bytes) {
      const bool ok = co_await send_bytes(c, route.size, head_only, persistence);
      if (!ok) co_return;
    } else {  // the common case: a pre-built answer, queued
      const auto& response = prebuilt(route.page, route.status, persistence);
      queue(*c, head_only ? response.head : response.full);
    }
    if (persistence == Persistence::close) {
      co_await finish(c);
      co_return;
    }
  }
}

}  // namespace

std::chrono::milliseconds ConnectionSet::sweep_period() const {
  return std::clamp(idle_timeout_ / 10, std::chrono::milliseconds(10),
                    std::chrono::milliseconds(1000));
}

void ConnectionSet::join(Entry& entry) {
  entry.previous = nullptr;
  entry.next = first_;
  if (first_ != nullptr) first_->previous = &entry;
  first_ = &entry;
  ++size_;
  joined_.fetch_add(1, std::memory_order_relaxed);
}

void ConnectionSet::leave(Entry& entry) {
  if (entry.previous != nullptr) entry.previous->next = entry.next;
  if (entry.next != nullptr) entry.next->previous = entry.previous;
  if (first_ == &entry) first_ = entry.next;
  entry.previous = entry.next = nullptr;
  --size_;
}

std::size_t ConnectionSet::close_idle(Clock::time_point now) {
  std::size_t closed = 0;
  // Closing only queues the failure of the connection's pending operation; its coroutine leaves
  // the set later, so the list does not change under this loop.
  for (Entry* entry = first_; entry != nullptr; entry = entry->next) {
    if (entry->deadline >= now) continue;
    error_code ignored;
    entry->socket->close(ignored);
    entry->deadline = Clock::time_point::max();  // closed once
    ++closed;
  }
  return closed;
}

net::awaitable<void> serve_connection(tcp::socket socket, ConnectionSet* connections) {
  Connection connection(std::move(socket), connections);
  co_await serve_requests(&connection);
}

net::awaitable<void> sweep_idle(ConnectionSet* connections) {
  net::steady_timer timer(co_await net::this_coro::executor);
  for (;;) {
    timer.expires_after(connections->sweep_period());
    const auto [ec] = co_await timer.async_wait(use_tuple);
    if (ec) co_return;
    connections->close_idle(Clock::now());
  }
}

}  // namespace stampede::target
