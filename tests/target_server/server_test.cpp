// Target server over real loopback sockets: routes, keep-alive, pipelining, limits, shutdown.
#include "target_server/server.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/target_server/http_client.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using namespace std::chrono_literals;

ServeOptions loopback(unsigned threads = 1) {
  ServeOptions options;
  options.port = 0;
  options.threads = threads;
  return options;
}

/// A Server running on its own thread for the test's duration.
class RunningServer {
 public:
  explicit RunningServer(ServeOptions options = loopback())
      : server_(std::make_unique<Server>(std::move(options))) {
    auto promise = std::promise<void>();
    finished_ = promise.get_future();
    thread_ = std::thread([server = server_.get(), promise = std::move(promise)]() mutable {
      server->run();
      promise.set_value();
    });
  }

  ~RunningServer() {
    if (!stop_and_wait(io_timeout)) {
      ADD_FAILURE() << "run() did not return after stop()";
      thread_.detach();
      static_cast<void>(server_.release());  // still in use by the stuck thread
    }
  }

  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;

  /// Stops the server; true if run() returned within `limit`.
  bool stop_and_wait(std::chrono::milliseconds limit) {
    if (!thread_.joinable()) return true;
    server_->stop();
    if (finished_.wait_for(limit) != std::future_status::ready) return false;
    thread_.join();
    return true;
  }

  unsigned short port() const { return server_->port(); }
  std::vector<std::uint64_t> connections_per_thread() const {
    return server_->connections_per_thread();
  }

 private:
  std::unique_ptr<Server> server_;
  std::future<void> finished_;
  std::thread thread_;
};

void expect_response(const Response& response, unsigned status, const std::string& body) {
  EXPECT_EQ(response.result_int(), status);
  EXPECT_EQ(response.body(), body);
  EXPECT_EQ(response[http::field::server], "stampede/0.1.0");
  EXPECT_EQ(response[http::field::content_length], std::to_string(body.size()));
}

TEST(TargetServer, AnswersEveryRouteOnOneConnection) {
  RunningServer server;
  HttpClient client(server.port());
  expect_response(client.get("/"), 200, "hello stampede\n");
  const auto json = client.get("/json?verbose=1");
  expect_response(json, 200, R"({"code":200,"msg":"ok"})");
  EXPECT_EQ(json[http::field::content_type], "application/json");
  expect_response(client.get("/status/503"), 503, "Service Unavailable\n");
  expect_response(client.get("/status/201"), 201, "Created\n");
  expect_response(client.get("/status/99"), 400, "Bad Request\n");
  expect_response(client.get("/status/600"), 400, "Bad Request\n");
  expect_response(client.get("/missing"), 404, "Not Found\n");
  expect_response(client.get("/bytes/1000"), 200, std::string(1000, 'x'));
  expect_response(client.get("/bytes/0"), 200, "");
  expect_response(client.get("/bytes/104857601"), 400,
                  "/bytes/{n}: n is at most 104857600 (100 MiB)\n");
  expect_response(client.get("/delay/0"), 200, "hello stampede\n");
  const auto no_content = client.get("/status/204");
  EXPECT_EQ(no_content.result_int(), 204U);
  EXPECT_EQ(no_content.count(http::field::content_length), 0U);
}

TEST(TargetServer, SendsLargeBodiesWhole) {
  RunningServer server;
  HttpClient client(server.port());
  constexpr std::size_t size = 3'000'000;  // several filler blocks
  const auto response = client.get("/bytes/" + std::to_string(size));
  ASSERT_EQ(response.body().size(), size);
  EXPECT_EQ(response.body().find_first_not_of('x'), std::string::npos);
  expect_response(client.get("/json"), 200, R"({"code":200,"msg":"ok"})");
}

TEST(TargetServer, AnswersHeadWithTheHeadOnly) {
  RunningServer server;
  HttpClient client(server.port());
  client.send(
      "HEAD /bytes/5000 HTTP/1.1\r\nHost: test\r\n\r\nHEAD / HTTP/1.1\r\nHost: test\r\n\r\n");
  EXPECT_EQ(client.receive(true)[http::field::content_length], "5000");
  EXPECT_EQ(client.receive(true)[http::field::content_length], "15");
  // Had a body been sent, this response would be parsed out of it.
  expect_response(client.get("/status/202"), 202, "Accepted\n");
}

TEST(TargetServer, KeepsTheConnectionAlive) {
  RunningServer server;
  HttpClient client(server.port());
  for (int i = 0; i < 3; ++i) {
    const auto response = client.get("/");
    expect_response(response, 200, "hello stampede\n");
    EXPECT_TRUE(response.keep_alive());
  }
}

TEST(TargetServer, AnswersPipelinedRequestsInOrder) {
  RunningServer server;
  HttpClient client(server.port());
  client.send(
      "GET /status/201 HTTP/1.1\r\nHost: test\r\n\r\n"
      "GET /json HTTP/1.1\r\nHost: test\r\n\r\n"
      "\r\n"  // a stray blank line between requests is ignored
      "GET /status/202 HTTP/1.1\r\nHost: test\r\n\r\n");
  EXPECT_EQ(client.receive().result_int(), 201U);
  EXPECT_EQ(client.receive().result_int(), 200U);
  EXPECT_EQ(client.receive().result_int(), 202U);
}

TEST(TargetServer, AnswersLongPipelinesInOrder) {
  RunningServer server;
  HttpClient client(server.port());
  constexpr int count = 100;  // more answers than one gathered write holds
  std::string burst;
  for (int i = 0; i < count; ++i) {
    burst += "GET /status/" + std::to_string(200 + i) + " HTTP/1.1\r\nHost: test\r\n\r\n";
  }
  client.send(burst);
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(client.receive().result_int(), 200U + i);
  }
}

TEST(TargetServer, KeepsOrderAcrossSlowAnswers) {
  RunningServer server;
  HttpClient client(server.port());
  client.send(
      "GET /status/201 HTTP/1.1\r\nHost: test\r\n\r\n"
      "GET /delay/30 HTTP/1.1\r\nHost: test\r\n\r\n"
      "GET /bytes/10 HTTP/1.1\r\nHost: test\r\n\r\n"
      "GET /status/202 HTTP/1.1\r\nHost: test\r\n\r\n");
  EXPECT_EQ(client.receive().result_int(), 201U);
  expect_response(client.receive(), 200, "hello stampede\n");
  expect_response(client.receive(), 200, "xxxxxxxxxx");
  EXPECT_EQ(client.receive().result_int(), 202U);
}

TEST(TargetServer, ReassemblesRequestsSplitAcrossReads) {
  RunningServer server;
  HttpClient client(server.port());
  client.send("GET /status/2");
  std::this_thread::sleep_for(20ms);  // lets the server read (and park) the first part alone
  client.send("02 HTTP/1.1\r\nHost: te");
  std::this_thread::sleep_for(20ms);
  client.send("st\r\n\r\n");
  EXPECT_EQ(client.receive().result_int(), 202U);
}

TEST(TargetServer, ClosesWhenAskedTo) {
  RunningServer server;
  HttpClient client(server.port());
  client.send("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
  const auto response = client.receive();
  expect_response(response, 200, "hello stampede\n");
  EXPECT_EQ(response[http::field::connection], "close");
  EXPECT_TRUE(client.closed_by_server());
}

TEST(TargetServer, FollowsHttp10KeepAliveRules) {
  RunningServer server;
  HttpClient reused(server.port());
  for (int i = 0; i < 2; ++i) {
    reused.send("GET /json HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    EXPECT_EQ(reused.receive()[http::field::connection], "keep-alive");
  }
  HttpClient single(server.port());
  single.send("GET /json HTTP/1.0\r\n\r\n");
  EXPECT_EQ(single.receive()[http::field::connection], "close");
  EXPECT_TRUE(single.closed_by_server());
}

TEST(TargetServer, DelaysTheAnswer) {
  RunningServer server;
  HttpClient client(server.port());
  const auto start = std::chrono::steady_clock::now();
  expect_response(client.get("/delay/100"), 200, "hello stampede\n");
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
}

TEST(TargetServer, RefusesMalformedRequestsWith400) {
  RunningServer server;
  HttpClient client(server.port());
  client.send("this is not http\r\n\r\n");
  const auto response = client.receive();
  EXPECT_EQ(response.result_int(), 400U);
  EXPECT_EQ(response[http::field::connection], "close");
  EXPECT_TRUE(client.closed_by_server());
}

TEST(TargetServer, RefusesOversizedHeadersWith431) {
  RunningServer server;
  HttpClient client(server.port());
  client.send("GET / HTTP/1.1\r\nHost: test\r\nX-Big: " + std::string(10'000, 'a') + "\r\n\r\n");
  const auto response = client.receive();
  EXPECT_EQ(response.result_int(), 431U);
  EXPECT_TRUE(client.closed_by_server());
}

TEST(TargetServer, DiscardsRequestBodies) {
  RunningServer server;
  HttpClient client(server.port());
  const std::string body(50'000, 'b');
  client.send("POST /json HTTP/1.1\r\nHost: test\r\nContent-Length: " +
              std::to_string(body.size()) + "\r\n\r\n" + body);
  expect_response(client.receive(), 200, R"({"code":200,"msg":"ok"})");
  client.send(
      "PUT /status/201 HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n1000\r\n" +
      std::string(0x1000, 'c') + "\r\n0\r\n\r\n");
  EXPECT_EQ(client.receive().result_int(), 201U);
  expect_response(client.get("/"), 200, "hello stampede\n");
}

TEST(TargetServer, LetsExpectContinueClientsSendTheirBody) {
  RunningServer server;
  HttpClient client(server.port());
  client.send("POST / HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  EXPECT_EQ(client.receive().result_int(), 100U);
  client.send("hello");
  expect_response(client.receive(), 200, "hello stampede\n");
}

TEST(TargetServer, ClosesIdleConnections) {
  auto options = loopback();
  options.idle_timeout = 100ms;
  RunningServer server(options);
  HttpClient client(server.port());
  expect_response(client.get("/"), 200, "hello stampede\n");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(client.closed_by_server());
  EXPECT_GE(std::chrono::steady_clock::now() - start, 90ms);
}

TEST(TargetServer, ServesOnSeveralThreads) {
  RunningServer server(loopback(2));
  std::vector<std::unique_ptr<HttpClient>> clients;
  for (int i = 0; i < 4; ++i) clients.push_back(std::make_unique<HttpClient>(server.port()));
  for (int round = 0; round < 2; ++round) {
    for (auto& client : clients) expect_response(client->get("/"), 200, "hello stampede\n");
  }
  // A connection is served by the thread that took it: round-robin gives each thread two.
  EXPECT_EQ(server.connections_per_thread(), (std::vector<std::uint64_t>{2, 2}));
}

TEST(TargetServer, StopEndsRunWithConnectionsOpen) {
  RunningServer server(loopback(2));
  HttpClient client(server.port());
  expect_response(client.get("/"), 200, "hello stampede\n");
  EXPECT_TRUE(server.stop_and_wait(2s));
}

TEST(TargetServer, StopBeforeRunMakesRunReturnAtOnce) {
  auto server = std::make_shared<Server>(loopback());
  server->stop();
  auto returned = std::make_shared<std::promise<void>>();
  auto done = returned->get_future();
  std::thread running([server, returned] {
    server->run();
    returned->set_value();
  });
  const bool ended = done.wait_for(2s) == std::future_status::ready;
  EXPECT_TRUE(ended) << "run() after stop() did not return";
  // A run() that never returns fails this test instead of hanging it.
  ended ? running.join() : running.detach();
}

TEST(TargetServer, ReportsAPortInUse) {
  const Server first(loopback());
  auto options = loopback();
  options.port = first.port();
  try {
    const Server second(options);
    FAIL() << "a second server bound port " << options.port;
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot listen on 127.0.0.1:" + std::to_string(options.port) +
                                         ": Address already in use");
  }
}

TEST(TargetServer, ReportsAnAddressNotOurs) {
  auto options = loopback();
  options.bind = "192.0.2.1";  // TEST-NET-1: never a local address
  EXPECT_THROW(Server{options}, std::runtime_error);
}

}  // namespace
}  // namespace stampede::target_server
