// Serialization tests: the exact bytes a request puts on the wire.
#include "server/client/prepared_request.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace stampede::client {
namespace {

model::Request sample_request() {
  model::Request r;
  r.origin.host = "127.0.0.1";
  r.origin.port = 8080;
  r.target = "/api?x=1";
  return r;
}

/// The HTTP/1.1 bytes of `r`.
std::string bytes_of(const model::Request& r) {
  return std::get<Http1Wire>(prepare(r, model::Protocol::http1).wire).bytes;
}

/// The HTTP/2 form of `r`.
Http2Wire h2_of(const model::Request& r) {
  return std::get<Http2Wire>(prepare(r, model::Protocol::http2).wire);
}

TEST(Prepare, GetWithoutKeepAliveClosesTheConnection) {
  const auto prepared = prepare(sample_request(), model::Protocol::http1);
  EXPECT_EQ(std::get<Http1Wire>(prepared.wire).bytes,
            "GET /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: stampede/0.1.0\r\n"
            "Accept: */*\r\nConnection: close\r\n\r\n");
  EXPECT_FALSE(prepared.head);
}

TEST(Prepare, PostWithBodyKeepAliveAndUserHeaders) {
  auto r = sample_request();
  r.origin.port = 80;
  r.method = "POST";
  r.body = R"({"a":1})";
  r.keep_alive = true;
  r.headers = {{"Content-Type", "application/json"}, {"user-agent", "mine"}, {"X-A", "1"}};
  const auto bytes = bytes_of(r);
  EXPECT_NE(bytes.find("POST /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"), std::string::npos);
  EXPECT_NE(bytes.find("Content-Type: application/json\r\n"), std::string::npos);
  EXPECT_EQ(bytes.find("x-www-form-urlencoded"), std::string::npos);
  EXPECT_NE(bytes.find("user-agent: mine\r\n"), std::string::npos);  // the user's case
  EXPECT_EQ(bytes.find("stampede/"), std::string::npos);
  EXPECT_NE(bytes.find("X-A: 1\r\n"), std::string::npos);
  EXPECT_NE(bytes.find("Content-Length: 7\r\n"), std::string::npos);
  EXPECT_EQ(bytes.find("Connection:"), std::string::npos);
  EXPECT_TRUE(bytes.ends_with("\r\n\r\n{\"a\":1}"));
}

TEST(Prepare, FormDefaultContentTypeIpv6HostAndHead) {
  auto r = sample_request();
  r.origin.host = "::1";
  r.method = "HEAD";
  EXPECT_NE(bytes_of(r).find("Host: [::1]:8080\r\n"), std::string::npos);
  EXPECT_TRUE(prepare(r, model::Protocol::http1).head);
  r.method = "POST";
  r.body = "a=1";
  EXPECT_NE(bytes_of(r).find("Content-Type: application/x-www-form-urlencoded\r\n"),
            std::string::npos);
}

TEST(Prepare, OmittedDefaultHeadersAreNotSent) {
  auto r = sample_request();
  r.method = "PUT";
  r.body = "x";
  r.omit_headers = {"accept", "User-Agent", "Content-Type"};
  r.headers = {{"X-Empty", ""}};
  const auto bytes = bytes_of(r);
  EXPECT_EQ(bytes,
            "PUT /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Empty: \r\n"
            "Connection: close\r\nContent-Length: 1\r\n\r\nx");
}

TEST(Prepare, OnlyIdempotentMethodsMayBeResent) {
  auto r = sample_request();
  for (const char* method : {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}) {
    r.method = method;
    EXPECT_TRUE(prepare(r, model::Protocol::http1).idempotent) << method;
  }
  for (const char* method : {"POST", "PATCH"}) {
    r.method = method;
    EXPECT_FALSE(prepare(r, model::Protocol::http1).idempotent) << method;
  }
}

TEST(PrepareHttp2, PseudoHeadersFirstThenLowerCaseFields) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::https;
  r.method = "POST";
  r.body = "x=1";
  r.headers = {{"X-Trace", "a"}, {"Host", "example.com"}};
  const auto prepared = h2_of(r);
  const std::vector<H2Field> expected{{":method", "POST"},
                                      {":scheme", "https"},
                                      {":authority", "example.com"},
                                      {":path", "/api?x=1"},
                                      {"user-agent", "stampede/0.1.0"},
                                      {"accept", "*/*"},
                                      {"x-trace", "a"},
                                      {"content-type", "application/x-www-form-urlencoded"},
                                      {"content-length", "3"}};
  EXPECT_EQ(prepared.headers, expected);
  EXPECT_EQ(prepared.body, "x=1");
}

TEST(PrepareHttp2, OverTlsTheHttp1FormComesAlongForAnAlpnFallback) {
  auto r = sample_request();
  EXPECT_EQ(prepare(r, model::Protocol::http2).http1_fallback, nullptr);  // h2c: no ALPN
  EXPECT_EQ(prepare(r, model::Protocol::http1).http1_fallback, nullptr);
  r.origin.scheme = model::Scheme::https;
  const auto prepared = prepare(r, model::Protocol::http2);
  ASSERT_NE(prepared.http1_fallback, nullptr);
  EXPECT_EQ(std::get<Http1Wire>(prepared.http1_fallback->wire).bytes, bytes_of(r));
}

// curl's --http2 on http://: the HTTP/1.1 form asks to upgrade, in curl's order, with our
// SETTINGS (no push, a 16 MiB window); the HTTP/2 form sent after the switch does not.
TEST(PrepareHttp2, AnH2cUpgradeIsAskedByTheHttp1Form) {
  auto r = sample_request();  // without keep-alive: the Connection header names the upgrade instead
  r.http_version = model::HttpVersion::http2;
  r.method = "POST";
  r.body = "x=1";
  const auto prepared = prepare(r, model::Protocol::http2);
  ASSERT_NE(prepared.http1_fallback, nullptr);
  EXPECT_EQ(std::get<Http1Wire>(prepared.http1_fallback->wire).bytes,
            "POST /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: stampede/0.1.0\r\n"
            "Accept: */*\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            "HTTP2-Settings: AAIAAAAAAAQBAAAA\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\nx=1");
  r.http_version = model::HttpVersion::any;
  EXPECT_EQ(std::get<Http2Wire>(prepared.wire).headers, h2_of(r).headers);
}

TEST(Printable, Http1AsSentHttp2AsItsHeaderList) {
  auto r = sample_request();
  r.method = "POST";
  r.body = "x=1";
  EXPECT_EQ(printable(prepare(r, model::Protocol::http1)), bytes_of(r));
  EXPECT_EQ(printable(prepare(r, model::Protocol::http2)),
            ":method: POST\n:scheme: http\n:authority: 127.0.0.1:8080\n:path: /api?x=1\n"
            "user-agent: stampede/0.1.0\naccept: */*\n"
            "content-type: application/x-www-form-urlencoded\ncontent-length: 3\n\nx=1");
}

TEST(PrepareHttp2, ConnectionSpecificFieldsAreNotSent) {
  auto r = sample_request();  // without keep-alive: HTTP/1.1 sends Connection: close
  r.headers = {{"Keep-Alive", "5"},
               {"Upgrade", "h2c"},
               {"HTTP2-Settings", "AAIAAAAAAAQBAAAA"},
               {"Transfer-Encoding", "chunked"},
               {"Proxy-Connection", "x"},
               {"TE", "gzip"}};
  for (const auto& [name, value] : h2_of(r).headers) {
    EXPECT_TRUE(name == ":method" || name == ":scheme" || name == ":authority" || name == ":path" ||
                name == "user-agent" || name == "accept")
        << name;
  }
  r.headers = {{"TE", "trailers"}};
  EXPECT_EQ(h2_of(r).headers.back(), H2Field("te", "trailers"));
}

TEST(PrepareHttp2, ARequestThatStreamsHasNoContentLength) {
  auto r = sample_request();
  r.method = "POST";
  r.body = "first message";
  const auto has_length = [](const Http2Wire& wire) {
    return std::ranges::any_of(wire.headers,
                               [](const H2Field& f) { return f.first == "content-length"; });
  };
  EXPECT_TRUE(has_length(h2_of(r)));
  r.grpc_client_streaming = true;  // its later messages follow the first on the same stream
  EXPECT_FALSE(has_length(h2_of(r)));
  EXPECT_EQ(h2_of(r).body, "first message");
}

TEST(PrepareHttp2, AnOmittedHostHasNoAuthority) {
  auto r = sample_request();
  r.omit_headers = {"Host", "Accept"};
  const std::vector<H2Field> expected{{":method", "GET"},
                                      {":scheme", "http"},
                                      {":path", "/api?x=1"},
                                      {"user-agent", "stampede/0.1.0"}};
  EXPECT_EQ(h2_of(r).headers, expected);
}

/// The WebSocket form of `r`.
WebSocketWire ws_of(const model::Request& r) {
  return std::get<WebSocketWire>(prepare(r, model::Protocol::websocket).wire);
}

using Headers = std::vector<std::pair<std::string, std::string>>;

TEST(PrepareWebSocket, TheUpgradesHostTargetAndDefaultUserAgent) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::ws;
  const auto wire = ws_of(r);
  EXPECT_EQ(wire.host, "127.0.0.1:8080");
  EXPECT_EQ(wire.target, "/api?x=1");
  EXPECT_EQ(wire.headers, (Headers{{"User-Agent", "stampede/0.1.0"}}));  // no Accept: Beast's
  EXPECT_TRUE(wire.ping);  // no message given: go-stress-testing's ping
  EXPECT_FALSE(wire.binary);
  EXPECT_EQ(wire.max_message, std::uint64_t{1} << 20);
  r.origin = {model::Scheme::wss, "::1", 443};
  EXPECT_EQ(ws_of(r).host, "[::1]");  // wss's default port is left out
}

TEST(PrepareWebSocket, UserHeadersReplaceTheDefaultsInPlace) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::ws;
  r.headers = {{"X-Token", "t"}, {"host", "other:81"}, {"user-agent", "mine"}, {"X-B", "2"}};
  const auto wire = ws_of(r);
  EXPECT_EQ(wire.host, "other:81");
  EXPECT_EQ(wire.headers, (Headers{{"User-Agent", "mine"}, {"X-Token", "t"}, {"X-B", "2"}}));
}

TEST(PrepareWebSocket, OmittedHeadersAreNotSent) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::ws;
  r.headers = {{"X-A", "1"}, {"X-Drop", "x"}};
  r.omit_headers = {"user-agent", "x-drop"};  // curl's -H 'Name:', in any case
  EXPECT_EQ(ws_of(r).headers, (Headers{{"X-A", "1"}}));
}

TEST(PrepareWebSocket, AMessageGoesAsGivenTextOrBinary) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::ws;
  r.body = R"({"op":"echo"})";
  r.binary = true;
  r.max_message = 64;
  r.compressed = true;  // --compressed is HTTP's Content-Encoding: nothing to decode here
  const auto prepared = prepare(r, model::Protocol::websocket);
  const auto& wire = std::get<WebSocketWire>(prepared.wire);
  EXPECT_EQ(wire.message, R"({"op":"echo"})");
  EXPECT_FALSE(wire.ping);
  EXPECT_TRUE(wire.binary);
  EXPECT_EQ(wire.max_message, 64U);
  EXPECT_FALSE(prepared.decode_body);
}

TEST(Printable, WebSocketAsTheUpgradeAndItsMessage) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::ws;
  r.headers = {{"X-A", "1"}};
  const std::string upgrade =
      "GET /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: stampede/0.1.0\r\n"
      "X-A: 1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      "Sec-WebSocket-Key: (16 random bytes, base64)\r\n\r\n";
  EXPECT_EQ(printable(prepare(r, model::Protocol::websocket)),
            upgrade + R"({"seq":"<user>_<i>","cmd":"ping","data":{}})" + "\n");
  r.body = "hello";
  EXPECT_EQ(printable(prepare(r, model::Protocol::websocket)), upgrade + "hello");
  r.binary = true;
  EXPECT_EQ(printable(prepare(r, model::Protocol::websocket)), upgrade + "(binary) hello");
}

}  // namespace
}  // namespace stampede::client

namespace stampede::client {
namespace {

TEST(WithCookies, Http1AddsAHeaderOrGoesFirstInTheRequestsOwn) {
  auto r = sample_request();
  r.keep_alive = true;
  const auto plain = prepare(r, model::Protocol::http1);
  RequestCopy copies;
  EXPECT_EQ(std::get<Http1Wire>(with_cookies(plain, "sid=1; a=2", copies).wire).bytes,
            "GET /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: stampede/0.1.0\r\n"
            "Accept: */*\r\nCookie: sid=1; a=2\r\n\r\n");
  r.headers = {{"cookie", "theme=dark"}, {"X-After", "1"}};
  r.method = "POST";
  r.body = "b=1";
  const auto own = prepare(r, model::Protocol::http1);
  const auto& bytes = std::get<Http1Wire>(with_cookies(own, "sid=1", copies).wire).bytes;
  EXPECT_NE(bytes.find("\r\ncookie: sid=1; theme=dark\r\nX-After: 1\r\n"), std::string::npos);
  EXPECT_TRUE(bytes.ends_with("\r\n\r\nb=1"));
  EXPECT_EQ(std::get<Http1Wire>(own.wire).bytes.size() + 7, bytes.size());  // the base unchanged
}

TEST(WithCookies, Http2AndItsFallbackCarryThem) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::https;
  const auto prepared = prepare(r, model::Protocol::http2);
  RequestCopy copies;
  const auto& copy = with_cookies(prepared, "sid=1", copies);
  EXPECT_EQ(std::get<Http2Wire>(copy.wire).headers.back(), (H2Field{"cookie", "sid=1"}));
  ASSERT_NE(copy.http1_fallback, nullptr);
  EXPECT_NE(std::get<Http1Wire>(copy.http1_fallback->wire).bytes.find("\r\nCookie: sid=1\r\n"),
            std::string::npos);
  r.headers = {{"Cookie", "a=2"}};
  const auto own = prepare(r, model::Protocol::http2);
  const auto& fields = std::get<Http2Wire>(with_cookies(own, "sid=1", copies).wire).headers;
  EXPECT_EQ(std::count(fields.begin(), fields.end(), H2Field{"cookie", "sid=1; a=2"}), 1);
  r.origin.scheme = model::Scheme::grpc;
  const auto call = prepare(r, model::Protocol::http2);
  EXPECT_EQ(&with_cookies(call, "sid=1", copies), &call);  // gRPC calls carry no cookies
}

// A WebSocket request carries the jar's cookies in its upgrade, before its own.
TEST(WithCookies, AWebSocketUpgradeCarriesThem) {
  auto r = sample_request();
  r.origin.scheme = model::Scheme::ws;
  r.body = "hi";
  RequestCopy copies;
  const auto plain = prepare(r, model::Protocol::websocket);
  const auto& added = std::get<WebSocketWire>(with_cookies(plain, "sid=1", copies).wire);
  EXPECT_EQ(added.headers.back(), (std::pair<std::string, std::string>{"Cookie", "sid=1"}));
  EXPECT_EQ(added.message, "hi");
  r.headers = {{"cookie", "a=2"}};
  const auto own = prepare(r, model::Protocol::websocket);
  const auto& joined = std::get<WebSocketWire>(with_cookies(own, "sid=1", copies).wire).headers;
  EXPECT_EQ(joined.back(), (std::pair<std::string, std::string>{"cookie", "sid=1; a=2"}));
}

}  // namespace
}  // namespace stampede::client
