// One client connection of the target server: parse requests out of one buffer, batch answers.
#include "server/target/connection.hpp"

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

#include "server/target/request_parser.hpp"
#include "server/target/routes.hpp"

namespace stampede::target {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;
using boost::system::error_code;
using net::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

// GCC 12 miscompiles `if (co_await f())` (the coroutine crashes once f() completes), so every
// awaited condition here goes through an if-initializer: `if (const bool ok = co_await f(); !ok)`.

/// Input room: a whole head (header_limit) plus whatever follows it in the same read.
constexpr std::size_t input_capacity = 12 * 1024;
/// Responses gathered into one write; a longer pipelined burst is written in several.
constexpr std::size_t max_pending = 32;
/// When closing, unread input is drained (this much, this long at most): closing a socket with
/// unread data sends a reset, which can destroy the last response before the client reads it.
constexpr std::size_t linger_bytes = 256 * 1024;
constexpr std::chrono::seconds linger_time{2};

/// One connection's state, kept in its coroutine's frame: nothing is allocated per request.
struct Connection {
  Connection(tcp::socket accepted, ConnectionSet* set)
      : socket(std::move(accepted)), pause(socket.get_executor()), connections(set) {
    entry.socket = &socket;
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
  std::size_t pending_count = 0;  // responses (views of static bytes) awaiting flush()
  std::array<net::const_buffer, max_pending> pending;
  std::array<char, bytes_head_capacity> bytes_head;  // the one response head not pre-built
  std::array<char, input_capacity> input;
};

/// Writes every queued response in one gathered write.
net::awaitable<bool> flush(Connection* c) {
  if (c->pending_count == 0) co_return true;
  const auto queued = std::span(c->pending.data(), c->pending_count);
  const auto [ec, written] = co_await net::async_write(c->socket, queued, use_tuple);
  c->pending_count = 0;
  co_return !ec;
}

/// Queues `bytes` (which must outlive the write) for the next flush(), flushing if full.
net::awaitable<bool> push(Connection* c, std::string_view bytes) {
  if (c->pending_count == max_pending) {
    if (const bool ok = co_await flush(c); !ok) co_return false;
  }
  c->pending[c->pending_count++] = net::buffer(bytes);
  co_return true;
}

/// Answers what was parsed so far, then reads more input behind any unparsed rest.
net::awaitable<bool> refill(Connection* c) {
  if (const bool ok = co_await flush(c); !ok) co_return false;
  if (c->begin > 0) {
    std::memmove(c->input.data(), c->input.data() + c->begin, c->end - c->begin);
    c->end -= c->begin;
    c->begin = 0;
  }
  // Only a chunk-size line can fill the buffer (heads stop at header_limit): give up on it.
  if (c->end == c->input.size()) co_return false;
  c->touch();
  const auto room = net::buffer(c->input.data() + c->end, c->input.size() - c->end);
  const auto [ec, received] = co_await c->socket.async_read_some(room, use_tuple);
  c->end += received;
  co_return !ec;
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

/// Answers a request that cannot be parsed with `status`, then closes.
net::awaitable<void> refuse(Connection* c, unsigned status) {
  const auto& response = prebuilt(Page::status, status, Persistence::close);
  if (const bool ok = co_await push(c, response.full); !ok) co_return;
  if (const bool ok = co_await flush(c); !ok) co_return;
  co_await linger(c);
}

/// A /bytes response: its head, then the body from the shared filler block, piece by piece.
net::awaitable<bool> send_bytes(Connection* c, std::uint64_t size, bool head_only,
                                Persistence persistence) {
  const auto head_size = format_bytes_head(size, persistence, c->bytes_head);
  const auto head = std::string_view(c->bytes_head.data(), head_size);
  if (const bool ok = co_await push(c, head); !ok) co_return false;
  const auto block = filler();
  for (auto left = head_only ? 0 : size; left > 0;) {
    const auto piece = std::min<std::uint64_t>(left, block.size());
    c->touch();  // a slow reader of a large body is not idle while it makes progress
    const auto body = std::string_view(block.data(), piece);
    if (const bool ok = co_await push(c, body); !ok) co_return false;
    if (const bool ok = co_await flush(c); !ok) co_return false;
    left -= piece;
  }
  co_return co_await flush(c);  // bytes_head is reused by the next /bytes response
}

/// The slow path: answers after a /delay, or with a /bytes body.
net::awaitable<bool> answer_later(Connection* c, Route route, bool head_only,
                                  Persistence persistence) {
  if (route.delay.count() > 0) {
    // Earlier answers should not wait for this one.
    if (const bool ok = co_await flush(c); !ok) co_return false;
    c->entry.deadline = Clock::now() + route.delay + c->connections->idle_timeout();
    c->pause.expires_after(route.delay);
    const auto [ec] = co_await c->pause.async_wait(use_tuple);
    if (ec) co_return false;
  }
  if (route.page == Page::bytes) {
    co_return co_await send_bytes(c, route.size, head_only, persistence);
  }
  const auto& response = prebuilt(route.page, route.status, persistence);
  co_return co_await push(c, head_only ? response.head : response.full);
}

/// The fast path: queues a pre-built answer; false if the route needs the slow path.
/// The caller guarantees a free pending slot.
bool answer_now(Connection& c, const RequestParser& parser, Persistence persistence) {
  const Route& route = parser.route();
  if (route.page == Page::bytes || route.delay.count() > 0) return false;
  const auto& response = prebuilt(route.page, route.status, persistence);
  c.pending[c.pending_count++] = net::buffer(parser.is_head() ? response.head : response.full);
  return true;
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

/// Parses request after request out of the input buffer, answering each in order.
net::awaitable<void> serve_requests(Connection* c) {
  std::optional<RequestParser> parser;
  for (;;) {
    if (!parser) parser.emplace();
    if (!parser->got_some()) skip_blank_lines(*c);
    error_code ec = http::error::need_more;
    if (c->begin < c->end) {
      const auto unparsed = net::buffer(c->input.data() + c->begin, c->end - c->begin);
      c->begin += parser->put(unparsed, ec);
    }
    if (ec && ec != http::error::need_more) {
      co_await refuse(c, ec == http::error::header_limit ? 431 : 400);
      co_return;
    }
    if (c->pending_count == max_pending) {
      if (const bool ok = co_await flush(c); !ok) co_return;
    }
    if (!parser->is_done()) {
      if (parser->is_header_done() && parser->take_expect_continue()) {
        c->pending[c->pending_count++] = net::buffer(continue_response);
      }
      if (c->begin == c->end || ec) {
        if (const bool ok = co_await refill(c); !ok) co_return;
      }
      continue;
    }
    const auto persistence = persistence_of(*parser);
    if (!answer_now(*c, *parser, persistence)) {
      const bool ok = co_await answer_later(c, parser->route(), parser->is_head(), persistence);
      if (!ok) co_return;
    }
    parser.reset();
    if (persistence == Persistence::close) {
      if (const bool ok = co_await flush(c); !ok) co_return;
      // A client that asked to close sends nothing more: linger only if it already did.
      if (c->begin < c->end) co_await linger(c);
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
