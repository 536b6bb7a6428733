// H2Session against an nghttp2 server session in memory: responses, resets, GOAWAY and PINGs.
#include "server/client/h2_session.hpp"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <string>

#include "server/client/h2_error.hpp"
#include "tests/server/client/fake_h2_server.hpp"

namespace stampede::client {
namespace {

using h2_fake::Answer;
using h2_fake::exchange_once;
using h2_fake::FakeServer;
using h2_fake::get;

TEST(H2Session, ResponseStatusHeadersAndBodyReachTheResponse) {
  FakeServer server(Answer::ok);
  H2Session client;
  const auto request = get();
  EXPECT_FALSE(client.server_settings());
  for (int i = 0; i < 2; ++i) {  // the session carries one stream after another
    model::Response response;
    ASSERT_TRUE(client.submit(request, response, true));
    server.talk(client);
    EXPECT_TRUE(client.stream_closed());
    EXPECT_FALSE(client.error());
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.server, "fake");
    EXPECT_EQ(response.body, "hello");
    EXPECT_EQ(response.body_bytes, 5u);
    EXPECT_TRUE(client.reusable());
    EXPECT_TRUE(client.server_settings());  // the server's preface came
  }
}

// RFC 7540 3.2: after the server's 101 the upgrade request is stream 1, its response comes
// there, our SETTINGS are those the request carried, and later requests use the session.
TEST(H2Session, AnUpgradedSessionTakesItsResponseOnStreamOne) {
  FakeServer server(Answer::ok);
  server.upgrade(H2Session::upgrade_settings());
  H2Session client(H2Session::Start::upgraded);
  const auto request = get();
  model::Response response;
  response.status = 101;  // what the HTTP/1.1 client read before the switch
  ASSERT_TRUE(client.upgrade(request, response, true, false));
  server.talk(client);
  EXPECT_TRUE(client.stream_closed());
  EXPECT_FALSE(client.error());
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, "hello");
  EXPECT_EQ(server.requests, 0);  // it came as HTTP/1.1: the server read no HTTP/2 request
  EXPECT_EQ(server.client_setting(NGHTTP2_SETTINGS_ENABLE_PUSH), 0u);
  EXPECT_EQ(server.client_setting(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE), 16u * 1024 * 1024);
  model::Response next;
  ASSERT_TRUE(client.submit(request, next, true));
  server.talk(client);
  EXPECT_EQ(next.status, 200);
  EXPECT_EQ(server.requests, 1);
  EXPECT_TRUE(client.reusable());
}

TEST(H2Session, ABodyGoesOutInDataFrames) {
  FakeServer server(Answer::ok);
  H2Session client;
  auto request = get();
  request.headers[0].second = "POST";
  request.body = std::string(100000, 'b');  // more than one DATA frame (16 KiB each)
  model::Response response;
  ASSERT_TRUE(client.submit(request, response, false));
  server.talk(client);
  EXPECT_EQ(server.received_body, request.body);
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(response.body.empty());  // not kept
  EXPECT_EQ(response.body_bytes, 5u);
}

TEST(H2Session, AResetStreamIsAProtocolError) {
  FakeServer server(Answer::reset);
  H2Session client;
  const auto request = get();
  model::Response response;
  ASSERT_TRUE(client.submit(request, response, false));
  server.talk(client);
  EXPECT_TRUE(client.stream_closed());
  EXPECT_EQ(client.error(), h2_peer_error(NGHTTP2_INTERNAL_ERROR));
  EXPECT_FALSE(client.refused());
}

TEST(H2Session, AStreamBeyondGoawayIsRefusedAndTheSessionIsDone) {
  FakeServer server(Answer::goaway);
  H2Session client;
  const auto request = get();
  model::Response response;
  ASSERT_TRUE(client.submit(request, response, false));
  server.talk(client);
  EXPECT_TRUE(client.stream_closed());
  EXPECT_TRUE(client.refused());
  EXPECT_FALSE(client.reusable());
}

TEST(H2Session, TheServersPingIsAnsweredInTheOutput) {
  FakeServer server(Answer::ok);
  H2Session client;
  exchange_once(server, client);
  server.ping();
  server.talk(client);
  EXPECT_EQ(server.ping_acks, 1);
  EXPECT_FALSE(client.server_goaway());
}

TEST(H2Session, TheServersGoawayWhileIdleIsNoticed) {
  FakeServer server(Answer::ok);
  H2Session client;
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
