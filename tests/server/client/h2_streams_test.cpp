// H2Streams shared (-m) against an nghttp2 server session in memory: many calls on one
// connection, the server's stream limit, a withdrawn call, GOAWAY and a failed connection.
#include "server/client/h2_streams.hpp"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <array>
#include <boost/asio/error.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "server/client/h2_error.hpp"
#include "tests/server/client/fake_h2_server.hpp"

namespace stampede::client {
namespace {

using h2_fake::Answer;
using h2_fake::FakeServer;
using h2_fake::get;
using h2_fake::Waiter;

TEST(H2Streams, EachStreamsResponseReachesItsOwnCall) {
  FakeServer server(Answer::ok);
  H2Streams client(H2Streams::Use::shared);
  const auto request = get();
  std::array<Waiter, 3> waiters{Waiter(request), Waiter(request), Waiter(request)};
  for (auto& waiter : waiters) ASSERT_TRUE(client.submit(waiter.call));
  EXPECT_EQ(client.calls(), 3u);
  server.talk(client);
  for (const auto& waiter : waiters) {
    EXPECT_EQ(waiter.told, 1);
    EXPECT_TRUE(waiter.call.done);
    EXPECT_FALSE(waiter.call.error);
    EXPECT_EQ(waiter.response.status, 200);
    EXPECT_EQ(waiter.response.server, "fake");
    EXPECT_EQ(waiter.response.body, "hello");
    EXPECT_GE(waiter.response.streams_open, 1u);
    EXPECT_GT(waiter.response.bytes_received, 5u);  // frame headers and HPACK too
    EXPECT_GT(waiter.response.bytes_sent, 0u);
  }
  EXPECT_EQ(server.requests, 3);
  EXPECT_EQ(client.calls(), 0u);
  EXPECT_EQ(client.open_streams(), 0u);
  EXPECT_TRUE(client.accepting());
  EXPECT_TRUE(client.server_settings());
}

TEST(H2Streams, OneStreamAtATimeUntilTheServersSettingsThenItsLimit) {
  FakeServer server(Answer::held);
  server.settings(2);
  H2Streams client(H2Streams::Use::shared);
  const auto request = get();
  std::array<Waiter, 5> waiters{Waiter(request), Waiter(request), Waiter(request), Waiter(request),
                                Waiter(request)};
  for (auto& waiter : waiters) ASSERT_TRUE(client.submit(waiter.call));
  server.receive(client.output());  // before the server's SETTINGS: one stream
  EXPECT_EQ(server.requests, 1);
  server.talk(client);  // its SETTINGS allow two
  EXPECT_EQ(server.requests, 2);
  EXPECT_EQ(client.open_streams(), 2u);
  // The three queued streams wait at least this long, the first only for the submits and its
  // send: a margin that holds on a busy machine (under ASan the two were 0.5 µs apart once).
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  for (int round = 0; round < 3; ++round) {
    server.release();
    server.talk(client);
  }
  EXPECT_EQ(server.requests, 5);
  EXPECT_EQ(client.peak_streams(), 2u);
  for (const auto& waiter : waiters) {
    EXPECT_EQ(waiter.response.status, 200);
    EXPECT_LE(waiter.response.streams_open, 2u);
  }
  // The last three waited for a free stream.
  EXPECT_GT(waiters[4].response.queueing, waiters[0].response.queueing);
}

TEST(H2Streams, AWithdrawnCallsStreamIsResetAndItsNeighbourGoesOn) {
  FakeServer server(Answer::held);
  H2Streams client(H2Streams::Use::shared);
  const auto request = get();
  Waiter gone(request);
  Waiter stays(request);
  ASSERT_TRUE(client.submit(gone.call));
  ASSERT_TRUE(client.submit(stays.call));
  server.talk(client);
  ASSERT_EQ(server.requests, 2);
  client.withdraw(gone.call);
  EXPECT_EQ(client.open_streams(), 1u);
  server.release();
  server.talk(client);
  EXPECT_EQ(server.resets, 1);
  EXPECT_EQ(server.reset_error, static_cast<std::uint32_t>(NGHTTP2_CANCEL));
  EXPECT_EQ(gone.told, 0);  // the caller withdrew it: nobody is told
  EXPECT_EQ(gone.response.status, 0);
  EXPECT_EQ(stays.told, 1);
  EXPECT_EQ(stays.response.status, 200);
  EXPECT_TRUE(client.accepting());
}

TEST(H2Streams, GoawayRefusesTheStreamsItLeavesOutAndTheQueuedOnes) {
  FakeServer server(Answer::held);
  server.settings(1);
  H2Streams client(H2Streams::Use::shared);
  const auto request = get();
  Waiter first(request);
  Waiter second(request);
  ASSERT_TRUE(client.submit(first.call));
  ASSERT_TRUE(client.submit(second.call));  // waits for the first's stream
  server.talk(client);
  ASSERT_EQ(server.requests, 1);
  server.goaway(0);  // it took none of them
  server.talk(client);
  for (const auto* waiter : {&first, &second}) {
    EXPECT_EQ(waiter->told, 1);
    EXPECT_EQ(waiter->call.error, h2_refused());
    EXPECT_EQ(classify(waiter->call.phase, waiter->call.error), model::ErrorKind::closed);
  }
  EXPECT_FALSE(client.accepting());
  EXPECT_EQ(client.calls(), 0u);
  Waiter late(request);  // nghttp2 takes it, and refuses it when it would go out
  ASSERT_TRUE(client.submit(late.call));
  server.talk(client);
  EXPECT_EQ(late.told, 1);
  EXPECT_EQ(late.call.error, h2_refused());
  EXPECT_EQ(server.requests, 1);
}

TEST(H2Streams, AFailedConnectionFailsEveryCallInItsPhase) {
  FakeServer server(Answer::held);
  H2Streams client(H2Streams::Use::shared);
  auto request = get();
  Waiter sent(request);
  ASSERT_TRUE(client.submit(sent.call));
  server.talk(client);
  auto post = get();
  post.body = "x";
  Waiter unsent(post);
  ASSERT_TRUE(client.submit(unsent.call));  // its frames are not written yet
  EXPECT_EQ(client.fail_all(boost::asio::error::broken_pipe, Phase::write), 2u);
  EXPECT_EQ(sent.call.phase, Phase::read);  // its request was out: the response was lost
  EXPECT_EQ(unsent.call.phase, Phase::write);
  EXPECT_EQ(sent.told + unsent.told, 2);
  EXPECT_EQ(client.calls(), 0u);
  EXPECT_EQ(client.open_streams(), 0u);
}

TEST(H2Streams, GoodbyeSendsGoawayAndFinishes) {
  FakeServer server(Answer::ok);
  H2Streams client(H2Streams::Use::shared);
  const auto request = get();
  Waiter one(request);
  ASSERT_TRUE(client.submit(one.call));
  server.talk(client);
  EXPECT_FALSE(client.finished());
  client.goodbye();
  server.talk(client);
  EXPECT_EQ(server.goaways, 1);
  EXPECT_EQ(server.goaway_error, static_cast<std::uint32_t>(NGHTTP2_NO_ERROR));
  EXPECT_TRUE(client.finished());
}

}  // namespace
}  // namespace stampede::client
