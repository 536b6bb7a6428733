// The target's WebSocket endpoints over loopback: echo, /acc, control frames, refusals, idleness.
#include "target_server/websocket.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "target_server/server.hpp"
#include "tests/target_server/http_client.hpp"
#include "tests/target_server/server_thread.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using namespace std::chrono_literals;

/// A WebSocket client (Beast's), each step bounded by io_timeout.
class WsClient {
 public:
  WsClient(unsigned short port, const std::string& path) : ws_(context_) {
    auto& stream = beast::get_lowest_layer(ws_);
    stream.expires_after(io_timeout);
    stream.async_connect({net::ip::make_address("127.0.0.1"), port},
                         [this](auto ec) { error_ = ec; });
    run();
    if (!error_) {
      ws_.async_handshake("127.0.0.1", path, [this](auto ec) { error_ = ec; });
      run();
    }
    EXPECT_FALSE(error_) << error_.message();
  }

  /// Sends one message, text or binary.
  void send(const std::string& message, bool text = true) {
    ws_.text(text);
    beast::get_lowest_layer(ws_).expires_after(io_timeout);
    ws_.async_write(net::buffer(message), [this](auto ec, std::size_t) { error_ = ec; });
    run();
    EXPECT_FALSE(error_) << error_.message();
  }

  /// Reads one message; error() tells whether it came.
  std::string receive() {
    beast::flat_buffer buffer;
    beast::get_lowest_layer(ws_).expires_after(io_timeout);
    ws_.async_read(buffer, [this](auto ec, std::size_t) { error_ = ec; });
    run();
    return beast::buffers_to_string(buffer.cdata());
  }

  std::string exchange(const std::string& message, bool text = true) {
    send(message, text);
    auto answer = receive();
    EXPECT_FALSE(error_) << error_.message();
    return answer;
  }

  /// Starts an operation on the stream (ping, close, a write of one frame) and runs it.
  template <class Start>
  beast::error_code run_op(Start start) {
    beast::get_lowest_layer(ws_).expires_after(io_timeout);
    start(ws_, [this](auto ec, auto&&...) { error_ = ec; });
    run();
    return error_;
  }

  [[nodiscard]] beast::error_code error() const { return error_; }
  websocket::stream<beast::tcp_stream>& ws() { return ws_; }

 private:
  void run() {
    context_.restart();
    context_.run();
  }

  net::io_context context_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::error_code error_;
};

/// A valid upgrade request (RFC 6455's example key) with `extra` fields and `tail` after it.
std::string upgrade_request(const std::string& path, const std::string& extra = "",
                            const std::string& key = "dGhlIHNhbXBsZSBub25jZQ==",
                            const std::string& version = "13") {
  return "GET " + path +
         " HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: " +
         key + "\r\nSec-WebSocket-Version: " + version + "\r\n" + extra + "\r\n";
}

TEST(TargetWebSocket, EchoesTextAsTextAndBinaryAsBinary) {
  ServerThread running(loopback_options());
  WsClient client(running.server().port(), "/echo");
  EXPECT_EQ(client.exchange("hello stampede"), "hello stampede");
  EXPECT_TRUE(client.ws().got_text());
  const std::string binary("\x00\xff\x80 binary\x01", 11);
  EXPECT_EQ(client.exchange(binary, false), binary);
  EXPECT_TRUE(client.ws().got_binary());
  EXPECT_EQ(client.exchange(""), "");  // a message ends with its first (empty) frame
  EXPECT_TRUE(client.ws().got_text());
  const std::string large(200'000, 'w');  // many reads of the server's 1,536-byte buffer
  EXPECT_EQ(client.exchange(large, false), large);
}

TEST(TargetWebSocket, EchoesAFragmentedMessageWhole) {
  ServerThread running(loopback_options());
  WsClient client(running.server().port(), "/echo");
  client.ws().text(true);
  client.run_op(
      [](auto& ws, auto done) { ws.async_write_some(false, net::buffer("frag", 4), done); });
  client.run_op(
      [](auto& ws, auto done) { ws.async_write_some(true, net::buffer("ment", 4), done); });
  EXPECT_FALSE(client.error());
  EXPECT_EQ(client.receive(), "fragment");
}

TEST(TargetWebSocket, AccAnswersAPingWithItsSeqAndGarbageWith400) {
  ServerThread running(loopback_options());
  WsClient client(running.server().port(), "/acc");
  EXPECT_EQ(client.exchange(R"({"seq":"1565336219141-266129","cmd":"ping","data":{}})"),
            R"({"seq":"1565336219141-266129","cmd":"ping","response":{"code":200,)"
            R"("codeMsg":"Success","data":null}})");
  EXPECT_TRUE(client.ws().got_text());
  const std::string bad =
      R"({"seq":"","cmd":"","response":{"code":400,"codeMsg":"bad request","data":null}})";
  EXPECT_EQ(client.exchange("not json"), bad);
  EXPECT_EQ(client.exchange(R"({"seq":"2","cmd":"ping","data":{}})", false), bad);
}

TEST(TargetWebSocket, AnswersPingWithPong) {
  ServerThread running(loopback_options());
  WsClient client(running.server().port(), "/echo");
  std::vector<std::string> pongs;
  client.ws().control_callback([&pongs](websocket::frame_type kind, beast::string_view payload) {
    if (kind == websocket::frame_type::pong) pongs.emplace_back(payload);
  });
  const auto ec = client.run_op([](auto& ws, auto done) { ws.async_ping("are you there?", done); });
  EXPECT_FALSE(ec) << ec.message();
  // The pong comes before the echo of a message sent after the ping.
  EXPECT_EQ(client.exchange("after"), "after");
  EXPECT_EQ(pongs, std::vector<std::string>{"are you there?"});
}

TEST(TargetWebSocket, AnswersCloseWithClose) {
  ServerThread running(loopback_options());
  WsClient client(running.server().port(), "/acc");
  const auto ec = client.run_op([](auto& ws, auto done) {
    ws.async_close(websocket::close_reason(websocket::close_code::going_away, "bye"), done);
  });
  // Beast's close waits for the server's close frame, then for the end of the TCP stream.
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_EQ(client.ws().reason().code, websocket::close_code::going_away);
}

/// Upgrades a raw connection; the 101's head is read.
void upgrade_raw(HttpClient& raw, const std::string& path) {
  raw.send(upgrade_request(path));
  const auto response = raw.receive();
  EXPECT_EQ(response.result_int(), 101U);
  EXPECT_EQ(response[http::field::sec_websocket_accept], "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  EXPECT_EQ(response[http::field::server], "stampede/0.1.0");
}

/// A close frame from the server: no mask, the code in two bytes, no reason.
std::string close_frame(std::uint16_t code) {
  return {'\x88', '\x02', static_cast<char>(code >> 8), static_cast<char>(code & 0xff)};
}

TEST(TargetWebSocket, ClosesWith1002OnGarbageAndServesOn) {
  ServerThread running(loopback_options());
  const auto port = running.server().port();
  // Whole frame headers (with the mask key): Beast judges a header once it has all of it.
  for (const std::string& garbage : {
           std::string("\x81\x05hello", 7),                     // unmasked: clients must mask
           std::string(16, '\xff'),                             // reserved bits and opcode
           std::string("\x89\xfe\x00\x80\x00\x00\x00\x00", 8),  // a ping over 125 bytes
           std::string("\x80\x80\x00\x00\x00\x00", 6),          // a continuation of nothing
       }) {
    HttpClient raw(port);
    upgrade_raw(raw, "/echo");
    raw.send(garbage);
    EXPECT_EQ(raw.read_bytes(4), close_frame(1002));
    EXPECT_TRUE(raw.closed_by_server());
  }
  WsClient client(port, "/echo");
  EXPECT_EQ(client.exchange("still here"), "still here");
}

TEST(TargetWebSocket, ClosesWith1007OnInvalidUtf8) {
  ServerThread running(loopback_options());
  WsClient client(running.server().port(), "/echo");
  client.send("\xc3\x28", false);  // fine as binary
  EXPECT_EQ(client.receive(), "\xc3\x28");
  client.send("\xc3\x28");
  client.receive();
  EXPECT_EQ(client.error(), websocket::error::closed);
  EXPECT_EQ(client.ws().reason().code, websocket::close_code::bad_payload);
}

TEST(TargetWebSocket, RefusesAMessageOver1MiBWith1009) {
  ServerThread running(loopback_options());
  WsClient client(running.server().port(), "/echo");
  const std::string largest(max_message_bytes, 'm');
  EXPECT_EQ(client.exchange(largest, false).size(), max_message_bytes);
  client.send(largest + "m", false);
  client.receive();
  EXPECT_EQ(client.error(), websocket::error::closed);
  EXPECT_EQ(client.ws().reason().code, websocket::close_code::too_big);
}

TEST(TargetWebSocket, AnswersPlainHttpBesideHeldConnections) {
  ServerThread running(loopback_options(2));
  const auto port = running.server().port();
  WsClient echo(port, "/echo");
  WsClient acc(port, "/acc");
  HttpClient http(port);
  EXPECT_EQ(http.get("/").body(), "hello stampede\n");
  const auto plain = http.get("/echo");  // no Upgrade: 426, and the connection stays open
  EXPECT_EQ(plain.result_int(), 426U);
  EXPECT_EQ(plain[http::field::upgrade], "websocket");
  EXPECT_EQ(plain[http::field::connection], "Upgrade");
  EXPECT_EQ(http.get("/json").body(), R"({"code":200,"msg":"ok"})");
  EXPECT_EQ(echo.exchange("one"), "one");
  EXPECT_EQ(acc.exchange(R"({"seq":"s","cmd":"ping"})"),
            R"({"seq":"s","cmd":"ping","response":{"code":200,"codeMsg":"Success","data":null}})");
  // Answers pipelined before an upgrade come first, on the same connection.
  HttpClient pipelined(port);
  pipelined.send("GET /json HTTP/1.1\r\nHost: test\r\n\r\n" + upgrade_request("/echo"));
  EXPECT_EQ(pipelined.receive().result_int(), 200U);
  EXPECT_EQ(pipelined.receive().result_int(), 101U);
}

TEST(TargetWebSocket, RefusesBadUpgradesWith400AndCloses) {
  ServerThread running(loopback_options());
  const auto port = running.server().port();
  const std::string valid = upgrade_request("/echo");
  const std::vector<std::string> bad = {
      upgrade_request("/echo", "", "dGhlIHNhbXBsZSBub25jZQ"),     // 22 characters
      upgrade_request("/echo", "", "dGhlIHNhbXBsZSBub25jZQ=!"),   // not base64
      upgrade_request("/acc", "", "dGhlIHNhbXBsZSBub25jZQ===="),  // 26 characters
      upgrade_request("/echo", "", "dGhlIHNhbXBsZSBub25jZQ==", "8"),
      "GET /echo HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Version: 13\r\n\r\n",  // no key
      "GET /echo HTTP/1.1\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      "Sec-WebSocket-Version: 13\r\n\r\n",  // no Connection: Upgrade
      "POST" + valid.substr(3),             // not GET
      valid.substr(0, valid.find("HTTP/1.1")) + "HTTP/1.0" + valid.substr(valid.find("\r\n")),
      valid + std::string("\x81\x82\x00\x00\x00\x00hi", 8),  // a frame before the 101
  };
  for (const auto& request : bad) {
    HttpClient raw(port);
    raw.send(request);
    const auto response = raw.receive();
    EXPECT_EQ(response.result_int(), 400U) << request;
    EXPECT_EQ(response[http::field::sec_websocket_version], "13");
    EXPECT_TRUE(raw.closed_by_server()) << request;
  }
}

TEST(TargetWebSocket, KeepsHeldConnectionsPastTheIdleTimeout) {
  auto options = loopback_options();
  options.idle_timeout = 100ms;
  ServerThread running(options);
  WsClient client(running.server().port(), "/echo");
  HttpClient http(running.server().port());
  EXPECT_EQ(client.exchange("before"), "before");
  std::this_thread::sleep_for(400ms);  // four idle timeouts: the sweep has run
  EXPECT_TRUE(http.closed_by_server());
  EXPECT_EQ(client.exchange("after"), "after");
}

}  // namespace
}  // namespace stampede::target_server
