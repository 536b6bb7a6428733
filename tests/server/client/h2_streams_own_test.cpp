// H2Streams on a user's own connection (HTTP/2 without -m) against an nghttp2 server session in
// memory: one stream after another, the h2c upgrade, resets, GOAWAY and PINGs.
#include "server/client/h2_streams.hpp"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <string>
#include <vector>

#include "server/client/h2_error.hpp"
#include "tests/server/client/fake_h2_server.hpp"

namespace stampede::client {
namespace {

using h2_fake::Answer;
using h2_fake::exchange_once;
using h2_fake::FakeServer;
using h2_fake::get;
using h2_fake::Waiter;

/// A user's own connection.
H2Streams own(H2Streams::Start start = H2Streams::Start::preface) {
  return H2Streams(H2Streams::Use::own, start);
}

TEST(H2StreamsOwn, ResponseStatusHeadersAndBodyReachTheResponse) {
  FakeServer server(Answer::ok);
  auto client = own();
  const auto request = get();
  EXPECT_FALSE(client.server_settings());
  for (int i = 0; i < 2; ++i) {  // the session carries one stream after another
    Waiter waiter(request);
    ASSERT_TRUE(client.submit(waiter.call));
    server.talk(client);
    EXPECT_TRUE(waiter.call.done);
    EXPECT_FALSE(waiter.call.error);
    EXPECT_FALSE(client.error());
    EXPECT_EQ(waiter.response.status, 200);
    EXPECT_EQ(waiter.response.server, "fake");
    EXPECT_EQ(waiter.response.body, "hello");
    EXPECT_EQ(waiter.response.body_bytes, 5u);
    // The client counts a connection of its own in wire bytes, and times no queue.
    EXPECT_EQ(waiter.response.bytes_received, 0u);
    EXPECT_EQ(waiter.response.bytes_sent, 0u);
    EXPECT_EQ(waiter.response.streams_open, 0u);
    EXPECT_TRUE(client.reusable());
    EXPECT_TRUE(client.server_settings());  // the server's preface came
  }
}

// RFC 7540 3.2: after the server's 101 the upgrade request is stream 1, its response comes
// there, our SETTINGS are those the request carried, and later requests use the session.
/// A streaming call (an event stream's) hears of its head and of each DATA frame as they come,
/// what arrived in its body, before the stream's end; a call that does not stream hears only
/// its end.
TEST(H2StreamsOwn, AStreamingCallIsToldOfItsHeadAndEachDataFrame) {
  struct Arrivals {
    std::vector<std::string> seen;  ///< the status and body at each arrival
    int done = 0;
  };
  FakeServer server(Answer::ok);
  auto client = own();
  const auto request = get();
  for (const bool streaming : {true, false}) {
    Arrivals arrivals;
    Waiter waiter(request);
    waiter.call.streaming = streaming;
    waiter.call.owner = &arrivals;
    waiter.call.on_arrival = [](H2Call& call) {
      static_cast<Arrivals*>(call.owner)
          ->seen.push_back(std::to_string(call.response->status) + " " + call.response->body);
      EXPECT_FALSE(call.done);
    };
    waiter.call.on_done = [](H2Call& call) { ++static_cast<Arrivals*>(call.owner)->done; };
    ASSERT_TRUE(client.submit(waiter.call));
    server.talk(client);
    EXPECT_EQ(arrivals.done, 1);
    if (streaming) {
      EXPECT_EQ(arrivals.seen, (std::vector<std::string>{"200 ", "200 hello"}));
    } else {
      EXPECT_TRUE(arrivals.seen.empty());
    }
  }
}

TEST(H2StreamsOwn, AnUpgradedSessionTakesItsResponseOnStreamOne) {
  FakeServer server(Answer::ok);
  server.upgrade(H2Streams::upgrade_settings());
  auto client = own(H2Streams::Start::upgraded);
  const auto request = get();
  Waiter waiter(request);
  waiter.response.status = 101;  // what the HTTP/1.1 client read before the switch
  ASSERT_TRUE(client.upgrade(waiter.call, false));
  server.talk(client);
  EXPECT_TRUE(waiter.call.done);
  EXPECT_FALSE(waiter.call.error);
  EXPECT_EQ(waiter.response.status, 200);
  EXPECT_EQ(waiter.response.body, "hello");
  EXPECT_EQ(server.requests, 0);  // it came as HTTP/1.1: the server read no HTTP/2 request
  EXPECT_EQ(server.client_setting(NGHTTP2_SETTINGS_ENABLE_PUSH), 0u);
  EXPECT_EQ(server.client_setting(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE), 16u * 1024 * 1024);
  Waiter next(request);
  ASSERT_TRUE(client.submit(next.call));
  server.talk(client);
  EXPECT_EQ(next.response.status, 200);
  EXPECT_EQ(server.requests, 1);
  EXPECT_TRUE(client.reusable());
}

TEST(H2StreamsOwn, ABodyGoesOutInDataFrames) {
  FakeServer server(Answer::ok);
  auto client = own();
  auto request = get();
  request.headers[0].second = "POST";
  request.body = std::string(100000, 'b');  // more than one DATA frame (16 KiB each)
  Waiter waiter(request, false);
  ASSERT_TRUE(client.submit(waiter.call));
  server.talk(client);
  EXPECT_EQ(server.received_body, request.body);
  EXPECT_TRUE(waiter.call.request_sent);
  EXPECT_EQ(waiter.response.status, 200);
  EXPECT_TRUE(waiter.response.body.empty());  // not kept
  EXPECT_EQ(waiter.response.body_bytes, 5u);
}

// A client-streaming call: each message goes out as it is added, the call told when all of it
// went if it asks (a bidirectional call waits for answers instead, and is not woken for
// nothing); the request ends (END_STREAM) only with the last, and only then does the server
// answer.
TEST(H2StreamsOwn, AStreamingRequestEndsWithItsLastMessage) {
  for (const bool tell : {true, false}) {
    FakeServer server(Answer::ok);
    auto client = own();
    auto request = get();
    request.headers[0].second = "POST";
    std::string outgoing = "one";
    std::vector<std::size_t> sent;  ///< body_sent at each arrival
    Waiter waiter(request);
    waiter.call.streaming = true;
    waiter.call.outgoing = &outgoing;
    waiter.call.tell_when_sent = tell;
    waiter.call.owner = &sent;
    waiter.call.on_arrival = [](H2Call& call) {
      static_cast<std::vector<std::size_t>*>(call.owner)->push_back(call.body_sent);
    };
    ASSERT_TRUE(client.submit(waiter.call));
    server.talk(client);
    EXPECT_EQ(server.received_body, "one");
    EXPECT_EQ(server.requests, 0);  // no END_STREAM yet
    EXPECT_FALSE(waiter.call.done);
    EXPECT_EQ(sent, tell ? std::vector<std::size_t>{3} : std::vector<std::size_t>{});
    outgoing += "two";
    waiter.call.outgoing_ends = true;
    client.send_more(waiter.call);
    server.talk(client);
    EXPECT_EQ(server.received_body, "onetwo");
    EXPECT_EQ(server.requests, 1);
    EXPECT_TRUE(waiter.call.request_sent);
    EXPECT_TRUE(waiter.call.done);
    EXPECT_FALSE(waiter.call.error);
    EXPECT_EQ(waiter.response.status, 200);
    if (tell) {
      EXPECT_EQ(sent.at(1), 6u);  // then the answer's HEADERS and DATA
    }
  }
}

/// How one GET's stream ended against a server that answers as `answer` says.
struct Ended {
  bool done = false;
  boost::system::error_code error;
  bool reusable = false;
};

Ended one_stream(Answer answer) {
  FakeServer server(answer);
  auto client = own();
  const auto request = get();
  Waiter waiter(request, false);
  EXPECT_TRUE(client.submit(waiter.call));
  server.talk(client);
  return {waiter.call.done, waiter.call.error, client.reusable()};
}

TEST(H2StreamsOwn, AResetStreamIsAProtocolError) {
  const auto ended = one_stream(Answer::reset);
  EXPECT_TRUE(ended.done);
  EXPECT_EQ(ended.error, h2_peer_error(NGHTTP2_INTERNAL_ERROR));
  EXPECT_NE(ended.error, h2_refused());
}

TEST(H2StreamsOwn, AStreamBeyondGoawayIsRefusedAndTheSessionIsDone) {
  const auto ended = one_stream(Answer::goaway);
  EXPECT_TRUE(ended.done);
  EXPECT_EQ(ended.error, h2_refused());
  EXPECT_FALSE(ended.reusable);
}

TEST(H2StreamsOwn, TheServersPingIsAnsweredInTheOutput) {
  FakeServer server(Answer::ok);
  auto client = own();
  exchange_once(server, client);
  server.ping();
  server.talk(client);
  EXPECT_EQ(server.ping_acks, 1);
  EXPECT_FALSE(client.server_goaway());
}

TEST(H2StreamsOwn, TheServersGoawayWhileIdleIsNoticed) {
  FakeServer server(Answer::ok);
  auto client = own();
  exchange_once(server, client);
  EXPECT_FALSE(client.server_goaway());
  server.goaway();
  server.talk(client);
  EXPECT_TRUE(client.server_goaway());
  EXPECT_FALSE(client.reusable());
  EXPECT_FALSE(client.error());
}

}  // namespace
}  // namespace stampede::client
