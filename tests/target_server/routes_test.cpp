// Target server routes: target -> route, caps and refusals, and the pre-built response bytes.
#include "target_server/routes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace stampede::target_server {
namespace {

TEST(TargetRoutes, MapsFixedPages) {
  EXPECT_EQ(route("/").page, Page::hello);
  EXPECT_EQ(route("/").status, 200U);
  EXPECT_EQ(route("/json").page, Page::json);
  EXPECT_EQ(route("/json?pretty=1").page, Page::json);
  EXPECT_EQ(route("/?x=1#top").page, Page::hello);
}

TEST(TargetRoutes, UnknownPathsAre404) {
  for (const auto* target : {"/nope", "/json/", "/jsonx", "/status", "/bytes", "*", ""}) {
    const auto r = route(target);
    EXPECT_EQ(r.page, Page::status) << target;
    EXPECT_EQ(r.status, 404U) << target;
  }
}

TEST(TargetRoutes, StatusAcceptsOnly200To599) {
  EXPECT_EQ(route("/status/200").status, 200U);
  EXPECT_EQ(route("/status/418?x").status, 418U);
  EXPECT_EQ(route("/status/599").status, 599U);
  for (const auto* target : {"/status/199", "/status/100", "/status/600", "/status/", "/status/-1",
                             "/status/2x0", "/status/99999999999999999999999"}) {
    const auto r = route(target);
    EXPECT_EQ(r.page, Page::status) << target;
    EXPECT_EQ(r.status, 400U) << target;
  }
}

TEST(TargetRoutes, DelayIsCappedAndBytesLimited) {
  EXPECT_EQ(route("/delay/250").delay, std::chrono::milliseconds(250));
  EXPECT_EQ(route("/delay/250").page, Page::hello);
  EXPECT_EQ(route("/delay/99999999").delay, max_delay);
  EXPECT_EQ(route("/delay/abc").status, 400U);
  EXPECT_EQ(route("/bytes/1024").page, Page::bytes);
  EXPECT_EQ(route("/bytes/1024").size, 1024U);
  EXPECT_EQ(route("/bytes/0").size, 0U);
  EXPECT_EQ(route("/bytes/104857600").page, Page::bytes);
  EXPECT_EQ(route("/bytes/104857600").size, max_bytes);
  EXPECT_EQ(route("/bytes/").status, 400U);
  // Past the limit a client gets a 400 saying so, never a shorter body than it asked for.
  for (const auto* target : {"/bytes/104857601", "/bytes/99999999999999999999999"}) {
    EXPECT_EQ(route(target).page, Page::bytes_limit) << target;
    EXPECT_EQ(route(target).status, 400U) << target;
  }
  const auto& refusal = prebuilt(Page::bytes_limit, 400, Persistence::keep_alive);
  EXPECT_TRUE(refusal.full.starts_with("HTTP/1.1 400 Bad Request\r\n")) << refusal.full;
  EXPECT_TRUE(refusal.full.ends_with("\r\n\r\n/bytes/{n}: n is at most 104857600 (100 MiB)\n"))
      << refusal.full;
}

TEST(TargetRoutes, SseReadsItsParametersWithDefaultsAndCaps) {
  const auto plain = route("/sse");
  EXPECT_EQ(plain.page, Page::sse);
  EXPECT_EQ(plain.status, 200U);
  EXPECT_EQ(plain.paced.count, 10U);
  EXPECT_EQ(plain.paced.interval, std::chrono::milliseconds(100));
  EXPECT_EQ(plain.paced.size, 0U);
  EXPECT_FALSE(plain.paced.retry);
  EXPECT_EQ(plain.paced.eol, LineEnd::lf);
  EXPECT_EQ(plain.paced.fault, Fault::none);
  const auto asked =
      route("/sse?events=3&interval=10&size=64&retry=2500&eol=crlf&fault=long&other=1#x");
  EXPECT_EQ(asked.paced.count, 3U);
  EXPECT_EQ(asked.paced.interval, std::chrono::milliseconds(10));
  EXPECT_EQ(asked.paced.size, 64U);
  EXPECT_EQ(asked.paced.retry.value_or(0), 2500U);
  EXPECT_EQ(asked.paced.eol, LineEnd::crlf);
  EXPECT_EQ(asked.paced.fault, Fault::long_line);
  EXPECT_EQ(route("/sse?eol=cr&fault=utf8").paced.eol, LineEnd::cr);
  EXPECT_EQ(route("/sse?fault=stall").paced.fault, Fault::stall);
  EXPECT_EQ(route("/sse?fault=cut").paced.fault, Fault::cut);
  EXPECT_EQ(route("/sse?fault=utf8").paced.fault, Fault::bad_utf8);
  EXPECT_EQ(route("/sse?events=2&events=5").paced.count, 2U);  // the first one counts
  const auto capped = route("/sse?events=99999999999999999999&interval=70000&size=9999999");
  EXPECT_EQ(capped.page, Page::sse);
  EXPECT_EQ(capped.paced.count, max_paced_count);
  EXPECT_EQ(capped.paced.interval, max_delay);
  EXPECT_EQ(capped.paced.size, max_paced_size);
  EXPECT_EQ(route("/sse?events=0").paced.count, 0U);
}

TEST(TargetRoutes, SseAndTrickleRefuseBadValuesWith400) {
  for (const auto* target :
       {"/sse?events=", "/sse?events=x", "/sse?events=-1", "/sse?interval=1.5", "/sse?size=1k",
        "/sse?retry=soon", "/sse?retry", "/sse?eol=crcr", "/sse?eol=", "/sse?fault=boom",
        "/trickle?chunks=ten", "/trickle?interval=", "/trickle?size=0", "/trickle?size=a"}) {
    const auto r = route(target);
    EXPECT_EQ(r.page, Page::status) << target;
    EXPECT_EQ(r.status, 400U) << target;
  }
  EXPECT_EQ(route("/sse/").status, 404U);
  EXPECT_EQ(route("/trickle/3").status, 404U);
}

TEST(TargetRoutes, TrickleReadsItsParameters) {
  const auto plain = route("/trickle");
  EXPECT_EQ(plain.page, Page::trickle);
  EXPECT_EQ(plain.paced.count, 10U);
  EXPECT_EQ(plain.paced.size, 16U);
  EXPECT_EQ(plain.paced.interval, std::chrono::milliseconds(100));
  const auto asked = route("/trickle?chunks=4&interval=0&size=3&eol=nonsense&fault=nonsense");
  EXPECT_EQ(asked.page, Page::trickle);  // /sse's parameters are not /trickle's
  EXPECT_EQ(asked.paced.count, 4U);
  EXPECT_EQ(asked.paced.interval, std::chrono::milliseconds(0));
  EXPECT_EQ(asked.paced.size, 3U);
  EXPECT_EQ(asked.paced.fault, Fault::none);
}

TEST(TargetRoutes, LastEventIdIsANumberForSseAlone) {
  auto sse = route("/sse");
  take_last_event_id(sse, "41");
  EXPECT_EQ(sse.paced.last_event_id, 41U);
  take_last_event_id(sse, "forty-two");  // not ours: left alone
  EXPECT_EQ(sse.paced.last_event_id, 41U);
  auto trickle = route("/trickle");
  take_last_event_id(trickle, "3");
  EXPECT_EQ(trickle.paced.last_event_id, 0U);
}

TEST(TargetRoutes, PacedHeadsAreChunkedWithoutALength) {
  const auto& sse = prebuilt(Page::sse, 200, Persistence::keep_alive);
  EXPECT_EQ(sse.full,
            "HTTP/1.1 200 OK\r\nServer: stampede/0.1.0\r\nContent-Type: text/event-stream\r\n"
            "Transfer-Encoding: chunked\r\nCache-Control: no-cache\r\n\r\n");
  EXPECT_EQ(sse.full, sse.head);
  const auto& trickle = prebuilt(Page::trickle, 200, Persistence::close);
  EXPECT_EQ(trickle.head,
            "HTTP/1.1 200 OK\r\nServer: stampede/0.1.0\r\nContent-Type: "
            "application/octet-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
}

TEST(TargetRoutes, AbsoluteFormTargetsRouteByPath) {
  EXPECT_EQ(route("http://127.0.0.1:8080/json").page, Page::json);
  EXPECT_EQ(route("http://example.com").page, Page::hello);
}

TEST(TargetRoutes, PrebuiltResponsesAreCompleteAndConsistent) {
  const auto& hello = prebuilt(Page::hello, 200, Persistence::keep_alive);
  EXPECT_EQ(hello.full,
            "HTTP/1.1 200 OK\r\nServer: stampede/0.1.0\r\nContent-Type: text/plain; "
            "charset=utf-8\r\nContent-Length: 15\r\n\r\nhello stampede\n");
  EXPECT_TRUE(hello.full.starts_with(hello.head));
  EXPECT_TRUE(hello.head.ends_with("\r\n\r\n"));

  const auto& json = prebuilt(Page::json, 200, Persistence::close);
  EXPECT_NE(json.head.find("Connection: close\r\n"), std::string_view::npos);
  EXPECT_TRUE(json.full.ends_with(R"({"code":200,"msg":"ok"})"));

  const auto& legacy = prebuilt(Page::status, 404, Persistence::keep_alive_http10);
  EXPECT_TRUE(legacy.full.starts_with("HTTP/1.1 404 Not Found\r\n"));
  EXPECT_NE(legacy.head.find("Connection: keep-alive\r\n"), std::string_view::npos);
  EXPECT_TRUE(legacy.full.ends_with("\r\n\r\nNot Found\n"));
}

TEST(TargetRoutes, WebSocketPagesAnswerPlainRequestsWith426) {
  EXPECT_EQ(route("/echo").page, Page::echo);
  EXPECT_EQ(route("/acc?user=1").page, Page::acc);
  EXPECT_EQ(route("/echo/").page, Page::status);  // 404, as any other path
  EXPECT_TRUE(is_websocket(Page::echo) && is_websocket(Page::acc));
  EXPECT_FALSE(is_websocket(Page::hello) || is_websocket(Page::bad_upgrade));
  const std::string body = "this endpoint speaks WebSocket: send Upgrade: websocket\n";
  EXPECT_EQ(prebuilt(Page::echo, 200, Persistence::keep_alive).full,
            "HTTP/1.1 426 Upgrade Required\r\nServer: stampede/0.1.0\r\nContent-Type: text/plain; "
            "charset=utf-8\r\nContent-Length: 56\r\nUpgrade: websocket\r\nConnection: "
            "Upgrade\r\n\r\n" +
                body);
  // RFC 9110 7.8: "upgrade" joins the connection's other option.
  const auto& legacy = prebuilt(Page::acc, 200, Persistence::keep_alive_http10);
  EXPECT_NE(legacy.head.find("Connection: keep-alive, Upgrade\r\n"), std::string_view::npos);
  const auto& closing = prebuilt(Page::acc, 200, Persistence::close);
  EXPECT_NE(closing.head.find("Connection: close, Upgrade\r\n"), std::string_view::npos);
  EXPECT_TRUE(closing.full.ends_with("\r\n\r\n" + body));
}

TEST(TargetRoutes, BadUpgradeNamesTheVersionAndCloses) {
  const auto& refusal = prebuilt(Page::bad_upgrade, 400, Persistence::keep_alive);
  EXPECT_TRUE(refusal.head.starts_with("HTTP/1.1 400 Bad Request\r\n")) << refusal.head;
  EXPECT_NE(refusal.head.find("\r\nSec-WebSocket-Version: 13\r\n"), std::string_view::npos);
  EXPECT_TRUE(refusal.head.ends_with("\r\nConnection: close\r\n\r\n")) << refusal.head;
  EXPECT_TRUE(refusal.full.ends_with("Sec-WebSocket-Version: 13\n"));
}

TEST(TargetRoutes, BusyIsA503OfItsOwnThatKeepsTheConnection) {
  EXPECT_EQ(busy_route.page, Page::busy);
  EXPECT_EQ(busy_route.status, 503U);
  EXPECT_EQ(busy_route.delay.count(), 0);
  const auto& busy = prebuilt(Page::busy, busy_route.status, Persistence::keep_alive);
  EXPECT_EQ(busy.full,
            "HTTP/1.1 503 Service Unavailable\r\nServer: stampede/0.1.0\r\nContent-Type: "
            "text/plain; charset=utf-8\r\nContent-Length: 65\r\n\r\nbusy: as many requests "
            "in flight as serve --max-in-flight allows\n");
  EXPECT_EQ(busy.full.substr(busy.head.size()), busy_body);
  // Not /status/503's body: a test tells a refusal from an answer it asked for.
  EXPECT_NE(prebuilt(Page::status, 503, Persistence::keep_alive).full, busy.full);
  const auto& legacy = prebuilt(Page::busy, 503, Persistence::keep_alive_http10);
  EXPECT_NE(legacy.head.find("Connection: keep-alive\r\n"), std::string_view::npos);
  const auto& closing = prebuilt(Page::busy, 503, Persistence::close);
  EXPECT_NE(closing.head.find("Connection: close\r\n"), std::string_view::npos);
  EXPECT_TRUE(closing.full.ends_with(busy_body));
  const auto h2 = content(Page::busy, 200);  // whatever status is passed: 503
  EXPECT_EQ(h2.status, 503U);
  EXPECT_EQ(h2.body, busy_body);
  EXPECT_EQ(h2.type, "text/plain; charset=utf-8");
}

TEST(TargetRoutes, BodilessStatusesHaveNoLength) {
  for (const unsigned status : {204U, 304U}) {
    const auto& response = prebuilt(Page::status, status, Persistence::keep_alive);
    EXPECT_EQ(response.full, response.head);
    EXPECT_EQ(response.head.find("Content-Length"), std::string_view::npos);
  }
}

TEST(TargetRoutes, FormatsBytesHead) {
  std::array<char, bytes_head_capacity> out{};
  const auto size = format_bytes_head(max_bytes, Persistence::close, out);
  const std::string head(out.data(), size);
  EXPECT_TRUE(head.starts_with("HTTP/1.1 200 OK\r\n"));
  EXPECT_NE(head.find("Content-Length: 104857600\r\n"), std::string::npos);
  EXPECT_NE(head.find("Connection: close\r\n"), std::string::npos);
  EXPECT_TRUE(head.ends_with("\r\n\r\n"));
  EXPECT_EQ(filler().front(), 'x');
  EXPECT_EQ(filler().back(), 'x');
}

}  // namespace
}  // namespace stampede::target_server
