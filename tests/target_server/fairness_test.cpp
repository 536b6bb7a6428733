// Target server with thousands of connections on one thread: each request waits its turn, no more.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "target_server/routes.hpp"
#include "target_server/server.hpp"
#include "tests/target_server/server_thread.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
using net::ip::tcp;
using namespace std::chrono_literals;

constexpr std::string_view request = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";

/// Users that each send a request, wait for its response, and send the next, as stampede -k
/// does. Time is counted in responses: a request's wait is how many responses all users
/// received between its sending and its own response.
struct Users {
  net::io_context context{1};
  std::uint64_t responses = 0;  // only the users' thread touches these
  std::uint64_t longest_wait = 0;
  std::size_t finished = 0;
};

/// Reads exactly `answer.size()` bytes, each part once epoll names the socket: this side must
/// not favour some connections (reads that find their data complete without epoll) either.
net::awaitable<bool> read_in_turn(tcp::socket* socket, std::string* answer) {
  constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
  for (std::size_t got = 0; got < answer->size();) {
    const auto [wait_error] = co_await socket->async_wait(tcp::socket::wait_read, use_tuple);
    if (wait_error) co_return false;
    boost::system::error_code error;
    got += socket->read_some(net::buffer(answer->data() + got, answer->size() - got), error);
    if (error && error != net::error::would_block) co_return false;
  }
  co_return true;
}

net::awaitable<void> user(tcp::socket socket, Users* users, int requests) {
  constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
  std::string answer(prebuilt(Page::hello, 200, Persistence::keep_alive).full.size(), '\0');
  socket.non_blocking(true);
  for (int i = 0; i < requests; ++i) {
    const auto sent_at = users->responses;
    const auto [error, written] =
        co_await net::async_write(socket, net::buffer(request), use_tuple);
    if (error) break;
    const bool answered = co_await read_in_turn(&socket, &answer);
    if (!answered) break;
    ++users->responses;
    users->longest_wait = std::max(users->longest_wait, users->responses - sent_at);
  }
  ++users->finished;
}

// With one request in flight per connection, first-in-first-out service answers every other
// connection at most about once before a request's turn comes. Asio's reactor takes at most
// 128 ready sockets from epoll per pass over its handlers, while a read whose data is already
// there completes without it, every pass: connections that had to wait for epoll waited tens
// of passes (seconds, with 5,000 users) while the others were served again and again.
TEST(TargetFairness, EveryRequestWaitsAboutOneTurn) {
  constexpr std::size_t connections = 2000;
  constexpr int requests = 15;
  if (!allow_open_files(2 * connections + 100)) GTEST_SKIP() << "needs 4,100 open files";
  ServerThread running(loopback_options());
  Users users;
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), running.server().port());
  for (std::size_t i = 0; i < connections; ++i) {
    tcp::socket socket(users.context);
    socket.connect(endpoint);
    net::co_spawn(users.context, user(std::move(socket), &users, requests), net::detached);
  }
  users.context.run_for(60s);
  ASSERT_EQ(users.finished, connections);
  EXPECT_EQ(users.responses, connections * requests);
  // In turn, a request waits for the others' answers and its own: `connections` responses.
  EXPECT_LE(users.longest_wait, connections + connections / 4);
}

}  // namespace
}  // namespace stampede::target_server
