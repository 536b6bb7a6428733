// One client connection of the target server: parse requests out of one buffer, batch answers;
// hand it over to HTTP/2 or WebSocket when it asks.
#include "target_server/connection.hpp"

#include <algorithm>
#include <optional>

#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/error.hpp>

#include "target_server/admission.hpp"
#include "target_server/connection_io.hpp"
#include "target_server/connection_paced.hpp"
#include "target_server/h2_connection.hpp"
#include "target_server/request_parser.hpp"
#include "target_server/routes.hpp"
#include "target_server/tls_context.hpp"
#include "target_server/websocket.hpp"

namespace stampede::target_server {
namespace {

using namespace connection_io;  // NOLINT(google-build-using-namespace): this file's own helpers
namespace http = boost::beast::http;
namespace ssl = net::ssl;

/// Waits for /delay/{ms}, having sent the earlier answers: they should not wait for this one.
template <class Stream>
net::awaitable<bool> wait_delay(Connection<Stream>* c, std::chrono::milliseconds delay) {
  if (c->pending_count > 0) {
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  c->entry.deadline = c->connections->idle_deadline(Clock::now() + delay);
  c->pause.expires_after(delay);
  const auto [ec] = co_await c->pause.async_wait(use_tuple);
  co_return !ec;
}

/// A /bytes response: its head (with the queued answers), then the body from the shared filler
/// block, piece by piece.
template <class Stream>
net::awaitable<bool> send_bytes(Connection<Stream>* c, std::uint64_t size, bool head_only,
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
template <class Stream>
void skip_blank_lines(Connection<Stream>& c) {
  while (c.begin < c.end && (c.input[c.begin] == '\r' || c.input[c.begin] == '\n')) ++c.begin;
}

/// What the parser made of the buffered input.
enum class Parsed { need_more, complete, malformed, too_large };

/// Feeds the buffered input to `parser` until a request is complete or the input runs out.
/// Queues "100 Continue" when a client waits for it; the caller leaves a free slot.
template <class Stream>
Parsed parse(Connection<Stream>& c, RequestParser& parser) {
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
template <class Stream>
net::awaitable<void> finish(Connection<Stream>* c) {
  const auto [ec, written] = co_await write_pending(*c);
  if (!ec && c->begin < c->end) co_await linger(c);
}

/// Hands a valid upgrade to WebSocket over to serve_websocket(), whose operations own the socket
/// from then on: this coroutine then ends, freeing the HTTP state (the input buffer is most of it)
/// and leaving the idle sweep's set, so that a held WebSocket connection costs only its own state
/// and is never swept. A bad upgrade gets 400. So do bytes after the upgrade request: a client must
/// wait for the 101 (RFC 6455 4.1), and Beast's stream starts with an empty buffer.
template <class Stream>
net::awaitable<void> upgrade_websocket(Connection<Stream>* c, const RequestParser* parser) {
  if (!parser->valid_websocket_upgrade() || c->begin < c->end) {
    co_await refuse(c, Page::bad_upgrade, 400);
    co_return;
  }
  if (c->pending_count > 0) {  // the answers to requests pipelined before the upgrade
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return;
  }
  // The idle timeout bounds the WebSocket handshakes (the close's too); without one (`serve
  // --idle-timeout 0`) the default's still does: a peer that never answers a close would
  // otherwise keep its connection for ever.
  const auto idle = c->connections->idle_timeout();
  const auto close_timeout =
      idle == std::chrono::milliseconds::zero() ? default_idle_timeout : idle;
  serve_websocket(std::move(c->stream), parser->route().page, parser->upgrade_request().key,
                  close_timeout);
}

/// Answers 101 to a request asking to go on as HTTP/2 ("Upgrade: h2c") and hands the connection
/// over to serve_h2(), which answers the request as stream 1 (RFC 7540 3.2). A request with a
/// body, or whose HTTP2-Settings does not decode, is answered as HTTP/1.1 instead (a server
/// may ignore an upgrade): false then.
net::awaitable<bool> upgrade_h2c(Connection<tcp::socket>* c, const RequestParser* parser) {
  auto settings = decode_h2_settings(parser->upgrade_request().h2_settings_text());
  const bool has_body = parser->chunked() || parser->content_length().value_or(0) > 0;
  if (!settings || has_body) co_return false;
  queue(*c, h2c_switching_response);  // after the answers to requests pipelined before it
  const auto [ec, written] = co_await write_pending(*c);
  if (ec) co_return true;
  const H2cUpgrade request{
      .settings = std::move(*settings), .route = parser->route(), .head = parser->is_head()};
  serve_h2(std::move(c->stream), c->connections, c->unparsed(), &request);
  co_return true;
}

/// Serves a request asking to upgrade; true if the connection is no longer ours to serve.
template <class Stream>
net::awaitable<bool> upgrade(Connection<Stream>* c, const RequestParser* parser) {
  if (parser->asks_websocket()) {
    co_await upgrade_websocket(c, parser);
    co_return true;
  }
  if constexpr (is_plain<Stream>) {
    const bool upgraded = co_await upgrade_h2c(c, parser);
    co_return upgraded;
  } else {
    co_return false;  // h2c over TLS: RFC 7540 3.2 says to ignore it
  }
}

/// Parses request after request out of the input buffer, answering each in order; answers
/// of pipelined requests are written together, when the input runs out.
template <class Stream>
net::awaitable<void> serve_requests(Connection<Stream>* c) {
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
    if (parser->asks_upgrade()) {
      if (const bool upgraded = co_await upgrade(c, &*parser); upgraded) co_return;
    }
    const auto persistence = persistence_of(*parser);
    const bool head_only = parser->is_head();
    // In flight from here until its answer is queued, a /delay's wait included; past the limit,
    // answered busy at once (keep-alive kept).
    InFlightSlot slot(c->connections->in_flight());
    const Route route = slot.admitted() ? parser->route() : busy_route;
    parser.reset();
    if (route.delay.count() > 0) {
      if (const bool ok = co_await wait_delay(c, route.delay); !ok) co_return;
    }
    if (route.page == Page::bytes) {
      const bool ok = co_await send_bytes(c, route.size, head_only, persistence);
      if (!ok) co_return;
    } else if (is_paced(route.page)) {  // in flight until its last piece
      const bool ok = co_await send_paced(c, route, head_only, persistence);
      if (!ok) co_return;
    } else {  // the common case: a pre-built answer, queued
      const auto& response = prebuilt(route.page, route.status, persistence);
      queue(*c, head_only ? response.head : response.full);
    }
    slot.release();
    if (persistence == Persistence::close) {
      co_await finish(c);
      co_return;
    }
  }
}

/// What a plain connection's first bytes say it speaks.
enum class FirstBytes { http1, h2, closed };

/// Reads until the input is more than a beginning of HTTP/2's connection preface: once per
/// connection, and for an HTTP/1.1 client, the read it needed anyway.
net::awaitable<FirstBytes> read_first(Connection<tcp::socket>* c) {
  for (;;) {
    const auto got = c->unparsed();
    if (got.starts_with(h2_preface)) co_return FirstBytes::h2;
    if (!h2_preface.starts_with(got)) co_return FirstBytes::http1;
    if (const bool ok = co_await refill(c); !ok) co_return FirstBytes::closed;
  }
}

}  // namespace

net::awaitable<void> serve_connection(tcp::socket socket, ConnectionSet* connections) {
  Connection<tcp::socket> connection(std::move(socket), connections);
  const auto first = co_await read_first(&connection);
  if (first == FirstBytes::http1) {
    co_await serve_requests(&connection);
  } else if (first == FirstBytes::h2) {  // prior knowledge (RFC 9113 3.3)
    serve_h2(std::move(connection.stream), connections, connection.unparsed(), nullptr);
  }
}

net::awaitable<void> serve_tls_connection(tcp::socket socket, ConnectionSet* connections,
                                          ssl::context* tls) {
  Connection<TlsStream> connection(TlsStream(std::move(socket), *tls), connections);
  const auto [ec] = co_await connection.stream.async_handshake(ssl::stream_base::server, use_tuple);
  if (ec) co_return;
  if (selected_h2(connection.stream.native_handle())) {
    serve_h2(std::move(connection.stream), connections);
    co_return;
  }
  co_await serve_requests(&connection);
}

}  // namespace stampede::target_server
