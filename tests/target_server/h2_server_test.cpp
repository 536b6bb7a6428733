// H2Server without sockets: an nghttp2 client in memory; the routes as over HTTP/1.1, gRPC, delays.
#include "target_server/h2_server.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "target_server/admission.hpp"
#include "target_server/routes.hpp"
#include "tests/target_server/h2_client.hpp"

namespace stampede::target_server {
namespace {

namespace http = boost::beast::http;
using namespace std::chrono_literals;

/// Moves bytes both ways until neither side has anything more to say (bounded).
void pump(H2Client& client, H2Server& server) {
  for (int round = 0; round < 10'000; ++round) {
    const auto to_server = client.output();
    if (!to_server.empty()) {
      ASSERT_TRUE(server.input(to_server.data(), to_server.size()));
    }
    std::string to_client;
    for (auto out = server.output(); !out.empty(); out = server.output()) to_client += out;
    if (!to_client.empty()) {
      ASSERT_TRUE(client.input(to_client));
    }
    if (to_server.empty() && to_client.empty()) return;
  }
  FAIL() << "the sessions never went quiet";
}

/// The HTTP/1.1 response the target sends for `target`, parsed.
http::response<http::string_body> http1_answer(const std::string& target, bool head = false) {
  const auto route = target_server::route(target);
  const auto& built = prebuilt(route.page, route.status, Persistence::keep_alive);
  http::response_parser<http::string_body> parser;
  parser.skip(head);
  parser.eager(true);  // the body in the same put()
  boost::system::error_code ec;
  parser.put(boost::asio::buffer(head ? built.head : built.full), ec);
  EXPECT_FALSE(ec) << ec.message();
  return parser.release();
}

TEST(TargetH2Server, AnswersEveryRouteAsHttp1Does) {
  H2Server server(100);
  H2Client client;
  const std::vector<std::string> paths = {
      "/",     "/json",      "/status/404",        "/status/503", "/status/204",
      "/nope", "/status/99", "/bytes/99999999999", "/echo",       "/json?x=1"};
  std::vector<std::int32_t> ids;
  for (const auto& path : paths) ids.push_back(client.submit("GET", path));
  pump(client, server);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    SCOPED_TRACE(paths[i]);
    const auto& got = client.result(ids[i]);
    const auto want = http1_answer(paths[i]);
    ASSERT_TRUE(got.closed);
    EXPECT_EQ(got.error_code, 0U);
    EXPECT_EQ(got.headers.at(":status"), std::to_string(want.result_int()));
    EXPECT_EQ(got.body, want.body());
    EXPECT_EQ(got.headers.at("server"), "stampede/0.1.0");
    const auto type = want[http::field::content_type];
    EXPECT_EQ(got.headers.contains("content-type") ? got.headers.at("content-type") : "", type);
    const auto length = want[http::field::content_length];
    EXPECT_EQ(got.headers.contains("content-length") ? got.headers.at("content-length") : "",
              length);
  }
}

TEST(TargetH2Server, HeadGetsTheFieldsWithoutTheBody) {
  H2Server server(100);
  H2Client client;
  const auto json = client.submit("HEAD", "/json");
  const auto bytes = client.submit("HEAD", "/bytes/5000");
  pump(client, server);
  EXPECT_EQ(client.result(json).headers.at(":status"), "200");
  EXPECT_EQ(client.result(json).headers.at("content-length"), "23");
  EXPECT_EQ(client.result(json).body, "");
  EXPECT_EQ(client.result(bytes).headers.at("content-length"), "5000");
  EXPECT_EQ(client.result(bytes).headers.at("content-type"), "application/octet-stream");
  EXPECT_EQ(client.result(bytes).data_frames, 0);
}

TEST(TargetH2Server, SendsLargeBodiesInPieces) {
  H2Server server(100);
  H2Client client;
  constexpr std::size_t size = 3 * 1024 * 1024 + 7;  // past the 256 KiB filler block, unaligned
  const auto id = client.submit("GET", "/bytes/" + std::to_string(size));
  std::size_t largest = 0;
  for (int round = 0; round < 10'000 && !client.all_closed(); ++round) {
    const auto to_server = client.output();
    if (!to_server.empty()) {
      ASSERT_TRUE(server.input(to_server.data(), to_server.size()));
    }
    const auto out = server.output();
    largest = std::max(largest, out.size());
    ASSERT_TRUE(client.input(out));
  }
  const auto& got = client.result(id);
  ASSERT_TRUE(got.closed);
  EXPECT_EQ(got.body, std::string(size, 'x'));
  EXPECT_EQ(got.headers.at("content-length"), std::to_string(size));
  EXPECT_LE(largest, std::size_t{80} * 1024);  // output() hands out about 64 KiB at a time
}

TEST(TargetH2Server, AnswersManyConcurrentStreamsAndDiscardsBodies) {
  H2Server server(1000);
  H2Client client;
  std::vector<std::int32_t> ids;
  for (int i = 0; i < 300; ++i) ids.push_back(client.submit("GET", "/json"));
  const auto post = client.submit("POST", "/", {}, std::string(2 * 1024 * 1024, 'b'));
  pump(client, server);
  EXPECT_EQ(client.server_max_streams(), 1000U);
  for (const auto id : ids) {
    ASSERT_TRUE(client.result(id).closed);
    EXPECT_EQ(client.result(id).body, R"({"code":200,"msg":"ok"})");
  }
  EXPECT_EQ(client.result(post).headers.at(":status"), "200");
  EXPECT_EQ(client.result(post).body, "hello stampede\n");
}

TEST(TargetH2Server, AdvertisesItsMaxStreamsAndRefusesStreamsPastThem) {
  H2Server server(1);
  H2Client client;
  // Sent before the server's SETTINGS arrive, so the client does not know the limit yet.
  const auto first = client.submit("GET", "/delay/10");
  const auto second = client.submit("GET", "/");
  pump(client, server);
  EXPECT_EQ(client.server_max_streams(), 1U);
  EXPECT_FALSE(client.result(first).closed);  // waiting for its delay
  EXPECT_TRUE(client.result(second).closed);
  EXPECT_EQ(client.result(second).error_code, static_cast<std::uint32_t>(NGHTTP2_REFUSED_STREAM));
  const auto delayed = server.take_delayed();
  ASSERT_EQ(delayed.size(), 1U);
  server.resume(delayed[0].stream_id);
  pump(client, server);
  EXPECT_EQ(client.result(first).body, "hello stampede\n");
  // Now the client knows: a third and a fourth go one after the other, both answered.
  const auto third = client.submit("GET", "/json");
  const auto fourth = client.submit("GET", "/json");
  pump(client, server);
  EXPECT_EQ(client.result(third).headers.at(":status"), "200");
  EXPECT_EQ(client.result(fourth).headers.at(":status"), "200");
}

TEST(TargetH2Server, DelayedStreamsWaitForResumeWithoutHoldingOthers) {
  H2Server server(100);
  H2Client client;
  const auto slow = client.submit("GET", "/delay/250");
  const auto capped = client.submit("GET", "/delay/999999");
  const auto fast = client.submit("GET", "/");
  pump(client, server);
  EXPECT_TRUE(client.result(fast).closed);
  EXPECT_FALSE(client.result(slow).closed);
  const auto delayed = server.take_delayed();
  ASSERT_EQ(delayed.size(), 2U);
  EXPECT_EQ(delayed[0].stream_id, slow);
  EXPECT_EQ(delayed[0].delay, 250ms);
  EXPECT_EQ(delayed[1].delay, max_delay);
  EXPECT_TRUE(server.take_delayed().empty());
  server.resume(slow);
  pump(client, server);
  EXPECT_EQ(client.result(slow).body, "hello stampede\n");
  EXPECT_FALSE(client.result(capped).closed);
  server.resume(slow);  // closed meanwhile: nothing happens
  server.resume(capped);
  pump(client, server);
  EXPECT_EQ(client.result(capped).headers.at(":status"), "200");
}

TEST(TargetH2Server, RefusesRequestsPastTheInFlightLimitWith503) {
  InFlightLimit limit(2);
  H2Server server(100, &limit);
  H2Client client;
  const auto slow = client.submit("GET", "/delay/100");
  const auto slower = client.submit("GET", "/delay/200");
  const auto refused = client.submit("GET", "/json");
  const auto refused_head = client.submit("HEAD", "/");
  pump(client, server);
  EXPECT_EQ(limit.in_flight(), 2U);  // the delayed two, until they are answered
  EXPECT_FALSE(client.result(slow).closed);
  EXPECT_FALSE(client.result(slower).closed);
  const auto& busy = client.result(refused);
  ASSERT_TRUE(busy.closed);
  EXPECT_EQ(busy.error_code, 0U);  // answered, not reset: the connection goes on
  EXPECT_EQ(busy.headers.at(":status"), "503");
  EXPECT_EQ(busy.body, busy_body);
  EXPECT_EQ(busy.headers.at("content-length"), std::to_string(busy_body.size()));
  EXPECT_EQ(client.result(refused_head).headers.at(":status"), "503");
  EXPECT_EQ(client.result(refused_head).body, "");
  ASSERT_EQ(server.take_delayed().size(), 2U);
  server.resume(slow);
  pump(client, server);
  EXPECT_EQ(client.result(slow).body, "hello stampede\n");
  EXPECT_EQ(limit.in_flight(), 1U);
  // A place is free again: the next request is served, and leaves at once.
  const auto next = client.submit("GET", "/json");
  pump(client, server);
  EXPECT_EQ(client.result(next).headers.at(":status"), "200");
  EXPECT_EQ(limit.in_flight(), 1U);
  server.resume(slower);
  pump(client, server);
  EXPECT_EQ(client.result(slower).headers.at(":status"), "200");
  EXPECT_EQ(limit.in_flight(), 0U);
}

TEST(TargetH2Server, CountsEachRequestUntilItsAnswerIsSubmitted) {
  InFlightLimit limit(1);
  H2Server server(100, &limit);
  H2Client client;
  // Answered at once, each leaves before the next arrives: a limit of one serves them all.
  std::vector<std::int32_t> ids;
  ids.reserve(20);
  for (int i = 0; i < 20; ++i) ids.push_back(client.submit("GET", i % 2 ? "/" : "/bytes/70000"));
  pump(client, server);
  for (const auto id : ids) EXPECT_EQ(client.result(id).headers.at(":status"), "200");
  EXPECT_EQ(client.result(ids[0]).body.size(), 70'000U);
  EXPECT_EQ(limit.in_flight(), 0U);
}

TEST(TargetH2Server, GivesBackThePlacesOfResetStreamsAndAtItsEnd) {
  InFlightLimit limit(3);
  {
    H2Server server(100, &limit);
    H2Client client;
    const auto given_up = client.submit("GET", "/delay/1000");
    client.submit("GET", "/delay/1000");
    pump(client, server);
    EXPECT_EQ(limit.in_flight(), 2U);
    client.reset(given_up);
    pump(client, server);
    EXPECT_EQ(limit.in_flight(), 1U);
    server.resume(given_up);  // reset meanwhile: nothing to answer, nothing to give back
    EXPECT_EQ(limit.in_flight(), 1U);
  }  // the connection ends with a stream still waiting
  EXPECT_EQ(limit.in_flight(), 0U);
}

TEST(TargetH2Server, PacedStreamsAskToBeResumedForEachStep) {
  InFlightLimit limit(10);
  H2Server server(100, &limit);
  H2Client client;
  const auto sse = client.submit("GET", "/sse?events=3&interval=10", {{"last-event-id", "1"}});
  const auto cut = client.submit("GET", "/sse?events=1&fault=cut");
  const auto stall = client.submit("GET", "/sse?events=0&fault=stall&eol=crlf");
  const auto trickle = client.submit("GET", "/trickle?chunks=2&interval=5&size=3");
  pump(client, server);
  const auto& events = client.result(sse);
  EXPECT_EQ(events.headers.at(":status"), "200");
  EXPECT_EQ(events.headers.at("content-type"), "text/event-stream");
  EXPECT_EQ(events.headers.at("cache-control"), "no-cache");
  EXPECT_FALSE(events.headers.contains("content-length"));
  EXPECT_EQ(events.body, ": stampede\n\nid: 2\ndata: {\"seq\":2}\n\n");  // resumed after 1
  EXPECT_FALSE(events.closed);
  EXPECT_EQ(client.result(cut).body, ": stampede\n\nid: 1\ndata: {\"seq\":1}\n\n");
  EXPECT_EQ(client.result(cut).error_code, static_cast<std::uint32_t>(NGHTTP2_INTERNAL_ERROR));
  EXPECT_EQ(client.result(stall).body, ": stampede\r\n\r\ndata: half");
  EXPECT_EQ(client.result(trickle).headers.at("content-type"), "application/octet-stream");
  EXPECT_EQ(client.result(trickle).body, "xxx");
  EXPECT_EQ(limit.in_flight(), 3U);  // the paced streams still open
  const auto delayed = server.take_delayed();
  ASSERT_EQ(delayed.size(), 2U);
  EXPECT_EQ(delayed[0].stream_id, sse);
  EXPECT_EQ(delayed[0].delay, 10ms);
  EXPECT_EQ(delayed[1].stream_id, trickle);
  EXPECT_EQ(delayed[1].delay, 5ms);
  server.resume(sse);
  server.resume(trickle);
  pump(client, server);
  EXPECT_TRUE(server.take_delayed().empty());  // both had one step more
  EXPECT_EQ(events.body, ": stampede\n\nid: 2\ndata: {\"seq\":2}\n\nid: 3\ndata: {\"seq\":3}\n\n");
  EXPECT_TRUE(events.closed);
  EXPECT_EQ(events.error_code, 0U);
  EXPECT_EQ(client.result(trickle).body, "xxxxxx");
  EXPECT_EQ(client.result(trickle).data_frames, 2);  // END_STREAM on the last chunk's
  EXPECT_FALSE(client.result(stall).closed);         // nothing more, ever
  EXPECT_EQ(limit.in_flight(), 1U);
  client.reset(stall);
  pump(client, server);
  EXPECT_EQ(limit.in_flight(), 0U);
}

/// gRPC's framing: a compression flag, a 4-byte length, the message.
std::string grpc_message(const std::string& message) {
  std::string framed(5, '\0');
  const auto size = message.size();
  framed[1] = static_cast<char>(size >> 24);
  framed[2] = static_cast<char>(size >> 16);
  framed[3] = static_cast<char>(size >> 8);
  framed[4] = static_cast<char>(size);
  return framed + message;
}

const std::vector<std::pair<std::string, std::string>> grpc_fields = {
    {"content-type", "application/grpc"}, {"te", "trailers"}};

TEST(TargetH2Server, GrpcEchoSendsTheMessagesBackWithStatusOk) {
  H2Server server(100);
  H2Client client;
  const auto body = grpc_message("hello") + grpc_message(std::string(70'000, '\x01'));
  const auto echo = client.submit("POST", std::string(grpc_echo_path), grpc_fields, body);
  const auto empty = client.submit("POST", std::string(grpc_echo_path), grpc_fields);
  pump(client, server);
  const auto& got = client.result(echo);
  ASSERT_TRUE(got.closed);
  EXPECT_EQ(got.error_code, 0U);
  EXPECT_EQ(got.headers.at(":status"), "200");
  EXPECT_EQ(got.headers.at("content-type"), "application/grpc");
  EXPECT_EQ(got.body, body);
  EXPECT_EQ(got.trailers, (std::map<std::string, std::string>{{"grpc-status", "0"}}));
  EXPECT_EQ(client.result(empty).body, "");
  EXPECT_EQ(client.result(empty).trailers.at("grpc-status"), "0");
}

TEST(TargetH2Server, GrpcCallsStayOutsideTheInFlightLimit) {
  InFlightLimit limit(1);
  H2Server server(100, &limit);
  H2Client client;
  const auto holding = client.submit("GET", "/delay/1000");
  const auto echo =
      client.submit("POST", std::string(grpc_echo_path), grpc_fields, grpc_message("hi"));
  pump(client, server);
  EXPECT_FALSE(client.result(holding).closed);
  EXPECT_EQ(limit.in_flight(), 1U);
  EXPECT_EQ(client.result(echo).headers.at(":status"), "200");  // served though the limit is full
  EXPECT_EQ(client.result(echo).trailers.at("grpc-status"), "0");
  EXPECT_EQ(limit.in_flight(), 1U);  // and not counted
}

TEST(TargetH2Server, GrpcOtherMethodsGetTrailersOnly) {
  H2Server server(100);
  H2Client client;
  const auto unknown = client.submit("POST", "/stampede.Echo/Nope", grpc_fields, "x");
  const auto root = client.submit("POST", "/", grpc_fields);
  auto failing_fields = grpc_fields;
  failing_fields.emplace_back("x-fail-code", "5");
  const auto fail5 = client.submit("POST", std::string(grpc_fail_path), failing_fields);
  const auto fail = client.submit("POST", std::string(grpc_fail_path), grpc_fields);
  pump(client, server);
  for (const auto id : {unknown, root}) {
    const auto& got = client.result(id);
    EXPECT_EQ(got.headers.at(":status"), "200");
    EXPECT_EQ(got.headers.at("content-type"), "application/grpc");
    EXPECT_EQ(got.headers.at("grpc-status"), "12");
    EXPECT_FALSE(got.headers.at("grpc-message").empty());
    EXPECT_EQ(got.data_frames, 0);
    EXPECT_TRUE(got.trailers.empty());
  }
  EXPECT_EQ(client.result(fail5).headers.at("grpc-status"), "5");
  EXPECT_EQ(client.result(fail).headers.at("grpc-status"), "13");
}

// The streaming methods, each in one go here (the tests' client sends a request whole): Chat
// sends the bytes back, Collect the last message, Repeat the request x-count times.
TEST(TargetH2Server, GrpcStreamingMethodsAnswerTheirWay) {
  H2Server server(100);
  H2Client client;
  const auto messages = grpc_message("one") + grpc_message("two") + grpc_message("three");
  const auto chat = client.submit("POST", std::string(grpc_chat_path), grpc_fields, messages);
  const auto chat_empty = client.submit("POST", std::string(grpc_chat_path), grpc_fields);
  const auto collect = client.submit("POST", std::string(grpc_collect_path), grpc_fields, messages);
  const auto collect_none = client.submit("POST", std::string(grpc_collect_path), grpc_fields);
  const auto broken = client.submit("POST", std::string(grpc_collect_path), grpc_fields,
                                    grpc_message("one").substr(0, 6));
  auto four = grpc_fields;
  four.emplace_back("x-count", "4");
  const auto repeat =
      client.submit("POST", std::string(grpc_repeat_path), four, grpc_message("hi"));
  const auto repeat_default =
      client.submit("POST", std::string(grpc_repeat_path), grpc_fields, grpc_message("hi"));
  pump(client, server);
  const std::map<std::string, std::string> ok{{"grpc-status", "0"}};
  EXPECT_EQ(client.result(chat).body, messages);
  EXPECT_EQ(client.result(chat).trailers, ok);
  EXPECT_EQ(client.result(chat_empty).body, "");
  EXPECT_EQ(client.result(chat_empty).trailers, ok);
  EXPECT_EQ(client.result(collect).body, grpc_message("three"));
  EXPECT_EQ(client.result(collect).trailers, ok);
  EXPECT_EQ(client.result(collect_none).body, grpc_message(""));
  EXPECT_EQ(client.result(broken).headers.at("grpc-status"), "13");
  std::string four_times;
  for (int i = 0; i < 4; ++i) four_times += grpc_message("hi");
  EXPECT_EQ(client.result(repeat).body, four_times);
  EXPECT_EQ(client.result(repeat).trailers, ok);
  EXPECT_EQ(client.result(repeat_default).body.size(), 3 * grpc_message("hi").size());
  EXPECT_TRUE(server.take_delayed().empty());  // no x-interval-ms: all at once
}

// Repeat with x-interval-ms: the first answer at once, each next one when resume() says it is
// due, then the trailers.
TEST(TargetH2Server, GrpcRepeatPacesItsAnswers) {
  H2Server server(100);
  H2Client client;
  auto paced = grpc_fields;
  paced.emplace_back("x-count", "3");
  paced.emplace_back("x-interval-ms", "20");
  const auto id = client.submit("POST", std::string(grpc_repeat_path), paced, grpc_message("hi"));
  pump(client, server);
  const auto one = grpc_message("hi");
  EXPECT_EQ(client.result(id).body, one);
  for (const auto& want : {one + one, one + one + one}) {
    const auto delayed = server.take_delayed();
    ASSERT_EQ(delayed.size(), 1U);
    EXPECT_EQ(delayed[0].delay, 20ms);
    server.resume(delayed[0].stream_id);
    pump(client, server);
    EXPECT_EQ(client.result(id).body, want);
  }
  EXPECT_TRUE(server.take_delayed().empty());
  EXPECT_TRUE(client.result(id).closed);
  EXPECT_EQ(client.result(id).trailers.at("grpc-status"), "0");
}

TEST(TargetH2Server, UpgradeAnswersTheHttp1RequestOnStreamOne) {
  H2Server server(100);
  H2Client client;
  client.upgraded(false);
  ASSERT_TRUE(server.upgrade(
      {.settings = H2Client::settings_payload(), .route = route("/status/418"), .head = false}));
  const auto next = client.submit("GET", "/json");
  pump(client, server);
  EXPECT_EQ(next, 3);
  EXPECT_EQ(client.result(1).headers.at(":status"), "418");
  EXPECT_EQ(client.result(1).body, http1_answer("/status/418").body());
  EXPECT_EQ(client.result(next).headers.at(":status"), "200");
}

TEST(TargetH2Server, AnUpgradedStreamOneCanWaitAndBePaced) {
  InFlightLimit limit(10);
  H2Server server(100, &limit);
  H2Client client;
  client.upgraded(false);
  ASSERT_TRUE(server.upgrade({.settings = H2Client::settings_payload(),
                              .route = route("/sse?events=2&interval=10"),
                              .head = false}));
  pump(client, server);
  EXPECT_EQ(client.result(1).body, ": stampede\n\nid: 1\ndata: {\"seq\":1}\n\n");
  const auto delayed = server.take_delayed();
  ASSERT_EQ(delayed.size(), 1U);
  EXPECT_EQ(delayed[0].stream_id, 1);
  server.resume(1);
  pump(client, server);
  EXPECT_TRUE(client.result(1).closed);
  EXPECT_TRUE(client.result(1).body.ends_with("id: 2\ndata: {\"seq\":2}\n\n"));
  EXPECT_EQ(limit.in_flight(), 0U);  // its close found its state
}

TEST(TargetH2Server, DecodesHttp2SettingsInBase64url) {
  EXPECT_EQ(decode_h2_settings(""), std::string());
  EXPECT_EQ(
      decode_h2_settings("AAMAAABkAAQAoAAAAAIAAAAA"),  // curl's
      std::string("\x00\x03\x00\x00\x00\x64\x00\x04\x00\xa0\x00\x00\x00\x02\x00\x00\x00\x00", 18));
  EXPECT_EQ(decode_h2_settings("AAMAAABk"), decode_h2_settings("AAMAAABk=="));
  EXPECT_FALSE(decode_h2_settings("AAMAAAB"));  // not whole settings
  EXPECT_FALSE(decode_h2_settings("AAMA*ABk"));
  EXPECT_FALSE(decode_h2_settings(std::string(400, 'A')));
}

TEST(TargetH2Server, ABadPrefaceEndsTheSession) {
  H2Server server(100);
  const std::string garbage = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  EXPECT_FALSE(server.input(garbage.data(), garbage.size()));
  EXPECT_TRUE(server.finished());
}

}  // namespace
}  // namespace stampede::target_server
