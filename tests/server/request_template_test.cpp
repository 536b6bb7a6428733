// RequestTemplate tests: variables rendered in the prepared bytes, Content-Length redone.
#include "server/request_template.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace stampede::server {
namespace {

model::Request templated_request() {
  model::Request r;
  r.origin.host = "127.0.0.1";
  r.origin.port = 8080;
  r.target = "/u/${user}?s=${seq}";
  r.keep_alive = true;
  return r;
}

TEST(RequestTemplate, ConstantRequestsHaveNone) {
  auto r = templated_request();
  r.target = "/plain?x=$y";
  EXPECT_FALSE(RequestTemplate::of(client::prepare(r, model::Protocol::http1)));
  EXPECT_FALSE(RequestTemplate::of(client::prepare(r, model::Protocol::http2)));
}

TEST(RequestTemplate, Http1HeadBodyAndLength) {
  auto r = templated_request();
  r.method = "POST";
  r.headers = {{"X-Id", "${user}-${seq}"}};
  r.body = "n=${rand:100-100}&s=${seq}";
  const auto prepared = client::prepare(r, model::Protocol::http1);
  const auto variables = RequestTemplate::of(prepared);
  ASSERT_TRUE(variables);
  session::UserValues values(12);
  values.round = 345;
  client::RequestCopy copy;
  const auto& out = variables->render(prepared, values, copy);
  EXPECT_EQ(std::get<client::Http1Wire>(out.wire).bytes,
            "POST /u/12?s=345 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: stampede/0.1.0\r\n"
            "Accept: */*\r\nX-Id: 12-345\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: 11\r\n\r\nn=100&s=345");
  values.round = 3;
  EXPECT_NE(std::get<client::Http1Wire>(variables->render(prepared, values, copy).wire)
                .bytes.find("Content-Length: 9\r\n\r\nn=100&s=3"),
            std::string::npos);
}

TEST(RequestTemplate, AnEscapeAloneIsRenderedAndCounted) {
  auto r = templated_request();
  r.target = "/";
  r.body = "$${x}";
  const auto prepared = client::prepare(r, model::Protocol::http1);
  const auto variables = RequestTemplate::of(prepared);
  ASSERT_TRUE(variables);
  session::UserValues values(0);
  client::RequestCopy copy;
  EXPECT_TRUE(std::get<client::Http1Wire>(variables->render(prepared, values, copy).wire)
                  .bytes.ends_with("Content-Length: 4\r\n\r\n${x}"));
}

TEST(RequestTemplate, Http2FieldsBodyAndFallback) {
  auto r = templated_request();
  r.origin.scheme = model::Scheme::https;
  r.origin.port = 443;
  r.body = "${seq}";
  const auto prepared = client::prepare(r, model::Protocol::http2);
  const auto variables = RequestTemplate::of(prepared);
  ASSERT_TRUE(variables);
  session::UserValues values(1);
  values.round = 1000;
  client::RequestCopy copy;
  const auto& out = variables->render(prepared, values, copy);
  const auto& wire = std::get<client::Http2Wire>(out.wire);
  EXPECT_EQ(wire.headers.at(3), (client::H2Field{":path", "/u/1?s=1000"}));
  EXPECT_EQ(wire.body, "1000");
  const auto length = std::find_if(wire.headers.begin(), wire.headers.end(),
                                   [](const auto& f) { return f.first == "content-length"; });
  ASSERT_NE(length, wire.headers.end());
  EXPECT_EQ(length->second, "4");
  ASSERT_NE(out.http1_fallback, nullptr);
  EXPECT_TRUE(std::get<client::Http1Wire>(out.http1_fallback->wire)
                  .bytes.starts_with("GET /u/1?s=1000 HTTP/1.1\r\n"));
  EXPECT_EQ(std::get<client::Http2Wire>(prepared.wire).body, "${seq}");  // the base unchanged
}

// WebSocket: the upgrade's target and headers and each message; go-stress-testing's ping (no
// message) stays the client's.
TEST(RequestTemplate, WebSocketUpgradeAndMessage) {
  auto r = templated_request();
  r.origin.scheme = model::Scheme::ws;
  r.headers = {{"X-User", "u${user}"}};
  r.body = R"({"round":${seq}})";
  const auto prepared = client::prepare(r, model::Protocol::websocket);
  const auto variables = RequestTemplate::of(prepared);
  ASSERT_TRUE(variables);
  session::UserValues values(4);
  values.round = 2;
  client::RequestCopy copy;
  const auto& wire =
      std::get<client::WebSocketWire>(variables->render(prepared, values, copy).wire);
  EXPECT_EQ(wire.target, "/u/4?s=2");
  EXPECT_EQ(wire.headers.back(), (std::pair<std::string, std::string>{"X-User", "u4"}));
  EXPECT_EQ(wire.message, R"({"round":2})");
  r.body.clear();
  const auto ping = client::prepare(r, model::Protocol::websocket);
  const auto& pinged =
      std::get<client::WebSocketWire>(RequestTemplate::of(ping)->render(ping, values, copy).wire);
  EXPECT_TRUE(pinged.ping);
  EXPECT_EQ(pinged.message, "");
}

// A gRPC call's message is protobuf, sent as written: only its metadata takes values.
TEST(RequestTemplate, AGrpcMessageIsSentAsWritten) {
  auto r = templated_request();
  r.origin.scheme = model::Scheme::grpc;
  r.target = "/pkg.Svc/Call";
  r.body = "\x0a\x07${seq}";  // a string field that happens to hold ${seq}
  EXPECT_FALSE(RequestTemplate::of(client::prepare(r, model::Protocol::http2)));
  r.headers = {{"authorization", "Bearer ${user}"}};
  const auto prepared = client::prepare(r, model::Protocol::http2);
  const auto variables = RequestTemplate::of(prepared);
  ASSERT_TRUE(variables);
  session::UserValues values(9);
  client::RequestCopy copy;
  const auto& wire = std::get<client::Http2Wire>(variables->render(prepared, values, copy).wire);
  EXPECT_EQ(wire.body, r.body);
  EXPECT_NE(std::find(wire.headers.begin(), wire.headers.end(),
                      client::H2Field{"authorization", "Bearer 9"}),
            wire.headers.end());
}

}  // namespace
}  // namespace stampede::server
