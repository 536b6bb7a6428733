// `serve --max-in-flight` over loopback: one count for every thread, connection and protocol;
// refusals are 503s that keep the connection.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "target_server/routes.hpp"
#include "target_server/server.hpp"
#include "tests/target_server/h2_wire.hpp"
#include "tests/target_server/http_client.hpp"
#include "tests/target_server/server_thread.hpp"

namespace stampede::target_server {
namespace {

namespace http = boost::beast::http;
using namespace std::chrono_literals;

/// Long enough that the requests a test sends meanwhile certainly arrive while it waits.
const std::string holding_request = "GET /delay/1000 HTTP/1.1\r\nHost: test\r\n\r\n";

ServeOptions limited(std::uint32_t most, unsigned threads = 1) {
  auto options = loopback_options(threads);
  options.max_in_flight = most;
  return options;
}

/// Waits (io_timeout at most) until `server` has `count` requests in flight.
bool wait_in_flight(const Server& server, std::uint32_t count) {
  const auto deadline = std::chrono::steady_clock::now() + io_timeout;
  while (server.requests_in_flight() != count) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

/// Waits (io_timeout at most) until `server`'s threads hold `counts` connections: a client's
/// connect() returns before the server has taken the connection.
bool wait_connections(const Server& server, const std::vector<std::uint64_t>& counts) {
  const auto deadline = std::chrono::steady_clock::now() + io_timeout;
  while (server.connections_per_thread() != counts) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

void expect_busy(const Response& response) {
  EXPECT_EQ(response.result_int(), 503U);
  EXPECT_EQ(response.body(), busy_body);
  EXPECT_EQ(response[http::field::server], "stampede/0.1.0");
}

TEST(TargetServerInFlight, RefusesPastTheLimitOnEveryThreadAndKeepsTheConnection) {
  ServerThread server(limited(1, 2));
  HttpClient holder(server.server().port());
  HttpClient other(server.server().port());
  holder.send(holding_request);
  ASSERT_TRUE(wait_in_flight(server.server(), 1));
  // The other connection lives on the other thread: the count is the process's.
  EXPECT_TRUE(wait_connections(server.server(), {1, 1}));
  const auto busy = other.get("/json");
  expect_busy(busy);
  EXPECT_TRUE(busy.keep_alive());
  other.send("HEAD / HTTP/1.1\r\nHost: test\r\n\r\n");
  const auto head = other.receive(true);
  EXPECT_EQ(head.result_int(), 503U);
  EXPECT_EQ(head[http::field::content_length], std::to_string(busy_body.size()));
  EXPECT_EQ(server.server().requests_in_flight(), 1U);  // refusals count nothing
  const auto held = holder.receive();
  EXPECT_EQ(held.result_int(), 200U);
  EXPECT_EQ(held.body(), "hello stampede\n");
  // The place is free again, and the connection refused before is served on.
  const auto served = other.get("/json");
  EXPECT_EQ(served.result_int(), 200U);
  EXPECT_EQ(served.body(), R"({"code":200,"msg":"ok"})");
  EXPECT_TRUE(wait_in_flight(server.server(), 0));
}

TEST(TargetServerInFlight, ARefusedRequestAskingToCloseGetsItsClose) {
  ServerThread server(limited(1));
  HttpClient holder(server.server().port());
  holder.send(holding_request);
  ASSERT_TRUE(wait_in_flight(server.server(), 1));
  HttpClient closing(server.server().port());
  closing.send("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
  const auto busy = closing.receive();
  expect_busy(busy);
  EXPECT_EQ(busy[http::field::connection], "close");
  EXPECT_TRUE(closing.closed_by_server());
  EXPECT_EQ(holder.receive().result_int(), 200U);
}

TEST(TargetServerInFlight, PipelinedRequestsEachLeaveBeforeTheNext) {
  ServerThread server(limited(1));
  HttpClient client(server.server().port());
  client.send(
      "GET /delay/20 HTTP/1.1\r\nHost: test\r\n\r\n"
      "GET /bytes/300000 HTTP/1.1\r\nHost: test\r\n\r\n"
      "GET /json HTTP/1.1\r\nHost: test\r\n\r\n");
  EXPECT_EQ(client.receive().result_int(), 200U);
  EXPECT_EQ(client.receive().body().size(), 300'000U);
  EXPECT_EQ(client.receive().result_int(), 200U);
  EXPECT_TRUE(wait_in_flight(server.server(), 0));
}

TEST(TargetServerInFlight, Http2StreamsShareTheCountWithHttp1Requests) {
  ServerThread server(limited(2));
  HttpClient holder(server.server().port());
  holder.send(holding_request);
  ASSERT_TRUE(wait_in_flight(server.server(), 1));
  net::io_context context;
  auto socket = connect_loopback(context, server.server().port());
  H2Client client;
  const auto delayed = client.submit("GET", "/delay/300");
  const auto refused = client.submit("GET", "/json");
  ASSERT_TRUE(exchange(context, socket, client));
  EXPECT_EQ(client.result(delayed).headers.at(":status"), "200");
  EXPECT_EQ(client.result(delayed).body, "hello stampede\n");
  EXPECT_EQ(client.result(refused).headers.at(":status"), "503");
  EXPECT_EQ(client.result(refused).body, busy_body);
  EXPECT_EQ(client.close_order(), (std::vector<std::int32_t>{refused, delayed}));  // at once
  EXPECT_EQ(server.server().requests_in_flight(), 1U);                             // the holder's
  // The same connection goes on: one place is free now.
  const auto next = client.submit("GET", "/json");
  ASSERT_TRUE(exchange(context, socket, client));
  EXPECT_EQ(client.result(next).headers.at(":status"), "200");
  EXPECT_EQ(holder.receive().result_int(), 200U);
  EXPECT_TRUE(wait_in_flight(server.server(), 0));
}

TEST(TargetServerInFlight, WithoutALimitNothingIsRefusedOrCounted) {
  ServerThread server(loopback_options());
  std::vector<std::unique_ptr<HttpClient>> clients;
  for (int i = 0; i < 5; ++i) {
    clients.push_back(std::make_unique<HttpClient>(server.server().port()));
    clients.back()->send("GET /delay/200 HTTP/1.1\r\nHost: test\r\n\r\n");
  }
  for (auto& client : clients) EXPECT_EQ(client->receive().result_int(), 200U);
  EXPECT_EQ(server.server().requests_in_flight(), 0U);
}

}  // namespace
}  // namespace stampede::target_server
