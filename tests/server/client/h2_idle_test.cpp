// H2Idle against an nghttp2 server session in memory: a held connection after the session's
// hand-over answers PINGs and SETTINGS, PINGs, says goodbye and notices the server's GOAWAY.
#include "server/client/h2_idle.hpp"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <string>

#include "server/client/h2_error.hpp"
#include "server/client/h2_streams.hpp"
#include "tests/server/client/fake_h2_server.hpp"

namespace stampede::client {
namespace {

using h2_fake::Answer;
using h2_fake::exchange_once;
using h2_fake::FakeServer;
using h2_fake::Pings;

/// Moves bytes both ways between the server and the held connection until both are quiet.
void talk(FakeServer& server, H2Idle& idle) {
  for (bool moved = true; moved;) {
    const auto to_server = idle.take_output();
    server.receive(to_server);
    const auto to_client = server.send();
    if (!to_client.empty()) {
      EXPECT_TRUE(idle.input(to_client.data(), to_client.size()));
    }
    moved = !to_server.empty() || !to_client.empty();
  }
}

/// One exchange over a session, then the connection handed over to an H2Idle.
H2Idle held(FakeServer& server) {
  H2Streams session(H2Streams::Use::own);
  exchange_once(server, session);
  return session.hand_over();
}

TEST(H2Idle, TheServersPingIsAnswered) {
  FakeServer server(Answer::ok);
  auto idle = held(server);
  server.ping();
  talk(server, idle);
  EXPECT_EQ(server.ping_acks, 1);
  EXPECT_FALSE(idle.server_goaway());
  EXPECT_FALSE(idle.error());
}

TEST(H2Idle, AFrameSplitAtTheHandOverIsTakenWhole) {
  // The session reads the first 5 bytes of the server's PING, the held connection the rest:
  // it answers the PING the session never saw whole.
  FakeServer server(Answer::ok);
  H2Streams session(H2Streams::Use::own);
  exchange_once(server, session);
  server.ping();
  const auto ping = server.send();
  ASSERT_EQ(ping.size(), 17u);
  ASSERT_TRUE(session.input(ping.data(), 5));
  auto idle = session.hand_over();
  ASSERT_TRUE(idle.input(ping.data() + 5, ping.size() - 5));
  talk(server, idle);
  EXPECT_EQ(server.ping_acks, 1);
}

TEST(H2Idle, TheServersSettingsAreAcknowledged) {
  FakeServer server(Answer::ok);
  auto idle = held(server);
  server.settings();
  talk(server, idle);
  EXPECT_EQ(server.settings_acks, 2);  // the session's, then the held connection's
}

TEST(H2Idle, APingIsUnansweredUntilItsAckComes) {
  FakeServer server(Answer::ok);
  auto idle = held(server);
  EXPECT_FALSE(idle.ping_unanswered());
  idle.ping();
  EXPECT_TRUE(idle.ping_unanswered());
  talk(server, idle);
  EXPECT_EQ(server.pings, 1);
  EXPECT_FALSE(idle.ping_unanswered());
}

TEST(H2Idle, OnlyAPingAckAnswersAPing) {
  // The server reads the PING and sends other frames (its own PING) but no ACK.
  FakeServer server(Answer::ok, Pings::ignored);
  auto idle = held(server);
  idle.ping();
  server.ping();
  talk(server, idle);
  EXPECT_EQ(server.pings, 1);
  EXPECT_TRUE(idle.ping_unanswered());
}

TEST(H2Idle, GoodbyeIsGoawayWithNoError) {
  FakeServer server(Answer::ok);
  auto idle = held(server);
  idle.goodbye();
  talk(server, idle);
  EXPECT_EQ(server.goaways, 1);
  EXPECT_EQ(server.goaway_error, static_cast<std::uint32_t>(NGHTTP2_NO_ERROR));
  EXPECT_FALSE(idle.server_goaway());
}

TEST(H2Idle, TheServersGoawayIsNoticed) {
  FakeServer server(Answer::ok);
  auto idle = held(server);
  server.goaway();
  talk(server, idle);
  EXPECT_TRUE(idle.server_goaway());
  EXPECT_FALSE(idle.error());
}

TEST(H2Idle, AGoawayTheSessionReadIsHandedOver) {
  FakeServer server(Answer::ok);
  H2Streams session(H2Streams::Use::own);
  exchange_once(server, session);
  server.goaway();
  server.talk(session);
  EXPECT_TRUE(session.hand_over().server_goaway());
}

TEST(H2Idle, AHeaderBlockIsAProtocolError) {
  // HEADERS on stream 1 (closed): the HPACK state it would need is gone, and no stream may
  // carry it.
  FakeServer server(Answer::ok);
  auto idle = held(server);
  const std::string headers("\0\0\1\1\4\0\0\0\1\x88", 10);
  EXPECT_FALSE(idle.input(headers.data(), headers.size()));
  EXPECT_EQ(idle.error(), h2_library_error(NGHTTP2_ERR_PROTO));
}

TEST(H2Idle, AFrameOverTheMaximumSizeIsAnError) {
  FakeServer server(Answer::ok);
  auto idle = held(server);
  const std::string header("\0\x40\1\0\0\0\0\0\1", 9);  // DATA of 16385 bytes
  EXPECT_FALSE(idle.input(header.data(), header.size()));
  EXPECT_EQ(idle.error(), h2_library_error(NGHTTP2_ERR_FRAME_SIZE_ERROR));
}

TEST(H2Idle, FramesOfClosedStreamsAreSkipped) {
  FakeServer server(Answer::ok);
  auto idle = held(server);
  // WINDOW_UPDATE on stream 1, then DATA on stream 1 split across two reads, then a PING.
  const std::string window("\0\0\4\x8\0\0\0\0\1\0\0\0\1", 13);
  const std::string data("\0\0\3\0\0\0\0\0\1abc", 12);
  EXPECT_TRUE(idle.input(window.data(), window.size()));
  EXPECT_TRUE(idle.input(data.data(), 10));
  EXPECT_TRUE(idle.input(data.data() + 10, 2));
  server.ping();
  talk(server, idle);
  EXPECT_EQ(server.ping_acks, 1);
  EXPECT_FALSE(idle.error());
}

}  // namespace
}  // namespace stampede::client
