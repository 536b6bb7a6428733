// The target holds thousands of WebSocket connections at once and answers on every one of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "target_server/server.hpp"
#include "tests/target_server/server_thread.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using net::ip::tcp;
using namespace std::chrono_literals;

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
constexpr std::size_t connection_count = 2'000;

/// What the clients share: one thread runs them all.
struct Clients {
  explicit Clients(net::io_context& context) : all_open(context) {
    all_open.expires_at(std::chrono::steady_clock::time_point::max());
  }
  unsigned short port = 0;
  std::size_t open = 0;  // connections upgraded and not yet closed
  std::size_t most_open = 0;
  std::size_t echoed = 0;      // clients whose own message came back
  net::steady_timer all_open;  // cancelled once every client is connected: the gate
};

/// One client: connects and upgrades, waits until every other client has too, then sends its
/// number and expects it back; closes only after that, so all are held at once.
net::awaitable<void> hold_and_echo(Clients* clients, std::size_t number) {
  websocket::stream<tcp::socket> ws(co_await net::this_coro::executor);
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), clients->port);
  const auto [connect_ec] = co_await ws.next_layer().async_connect(endpoint, use_tuple);
  if (connect_ec) co_return;
  const auto [handshake_ec] = co_await ws.async_handshake("127.0.0.1", "/echo", use_tuple);
  if (handshake_ec) co_return;
  clients->most_open = std::max(clients->most_open, ++clients->open);
  if (clients->open == connection_count) clients->all_open.cancel();
  if (clients->most_open < connection_count) co_await clients->all_open.async_wait(use_tuple);
  const auto message = "client " + std::to_string(number);
  const auto [write_ec, written] = co_await ws.async_write(net::buffer(message), use_tuple);
  beast::flat_buffer answer;
  const auto [read_ec, read] = co_await ws.async_read(answer, use_tuple);
  if (!write_ec && !read_ec && beast::buffers_to_string(answer.cdata()) == message) {
    ++clients->echoed;
  }
  --clients->open;
}

TEST(TargetWebSocketMany, HoldsTwoThousandConnectionsAndEchoesOnEach) {
  // Client and server ends are both in this process.
  if (!allow_open_files(2 * connection_count + 100)) GTEST_SKIP() << "too few open files";
  ServerThread running(loopback_options(2));
  net::io_context context(1);
  Clients clients(context);
  clients.port = running.server().port();
  for (std::size_t i = 0; i < connection_count; ++i) {
    net::co_spawn(context, hold_and_echo(&clients, i), net::detached);
  }
  context.run_for(60s);  // far more than the second or two it takes; unfinished clients fail
  EXPECT_EQ(clients.most_open, connection_count);
  EXPECT_EQ(clients.echoed, connection_count);
}

}  // namespace
}  // namespace stampede::target_server
