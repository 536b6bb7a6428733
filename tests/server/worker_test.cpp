// The user loop on a fake client and a fake clock: exact sequences, no sockets, no wall time.
#include "server/worker.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "server/client/watchdog.hpp"
#include "tests/server/fake_client.hpp"

namespace stampede::server {
namespace {

using namespace std::chrono_literals;
using testing::Answer;
using testing::Call;
using testing::FakeClock;
using testing::FakeServer;

model::Request worker_request(std::string target, unsigned short port = 8080) {
  model::Request r;
  r.origin.host = "127.0.0.1";
  r.origin.port = port;
  r.target = std::move(target);
  return r;
}

/// Runs one user over `flow` for `rounds` rounds on the fake server; returns its tally.
/// `adjust` sets what a test varies in the task (--hold, a stop on the way) before it starts.
struct UserRun {
  UserRun(const Flow& flow, FakeServer& server, std::uint64_t rounds,
          std::unique_ptr<verify::Verifier> verifier = verify::make_verifier("statusCode", 200),
          const std::function<void(UserTask&)>& adjust = {})
      : verifier_(std::move(verifier)), factory_(testing::fake_factory(server)) {
    tally.steps.resize(flow.steps().size() > 1 ? flow.steps().size() : 0);
    tally.users_running = 1;
    client::ThreadContext thread{context_.get_executor(),
                                 &watchdog_,
                                 0,
                                 {},
                                 {},
                                 std::chrono::steady_clock::time_point::max()};
    UserTask task;
    task.tally = &tally;
    task.flow = &flow;
    task.verifier = verifier_.get();
    task.thread = &thread;
    task.make_client = &factory_;
    task.now = &FakeClock::now;
    task.rounds = rounds;
    task.on_finish = [this] { ++finished; };
    if (adjust) adjust(task);
    boost::asio::co_spawn(context_, run_user(std::move(task)), boost::asio::detached);
    context_.run();
  }

  ThreadTally tally;
  int finished = 0;

 private:
  boost::asio::io_context context_;
  client::Watchdog watchdog_{1s};
  std::unique_ptr<verify::Verifier> verifier_;
  ClientFactory factory_;
};

TEST(UserLoop, SendsEveryStepInOrderEachRoundWithAClientPerDestination) {
  const Flow flow({worker_request("/a"), worker_request("/b", 9090), worker_request("/c")},
                  model::Plan{}, false);
  FakeServer server;
  const UserRun run(flow, server, 2);
  const auto& steps = flow.steps();
  const std::vector<const client::PreparedRequest*> expected{
      &steps[0].prepared, &steps[1].prepared, &steps[2].prepared,
      &steps[0].prepared, &steps[1].prepared, &steps[2].prepared};
  EXPECT_EQ(server.sent, expected);
  ASSERT_EQ(server.clients.size(), 2U);  // 8080 and 9090
  EXPECT_EQ(server.clients[0], &flow.destinations()[0]->setup);
  EXPECT_EQ(server.clients[1], &flow.destinations()[1]->setup);
  EXPECT_EQ(run.finished, 1);
  EXPECT_EQ(run.tally.users_running, 0U);
  EXPECT_EQ(run.tally.in_flight, 0U);
  EXPECT_EQ(run.tally.metrics.completed(), 6U);
  EXPECT_EQ(run.tally.steps[1].completed(), 2U);
}

TEST(UserLoop, LatencyIsTheExchangeAndTheVerifierDecidesSuccess) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  FakeServer server;
  server.script = [](std::size_t i) {
    return i == 0 ? Answer{5ms, model::ErrorKind::none, 200} : Answer{7ms, {}, 404};
  };
  const UserRun run(flow, server, 2);
  const auto& metrics = run.tally.metrics;
  EXPECT_EQ(metrics.succeeded, 1U);
  EXPECT_EQ(metrics.errors_of(model::ErrorKind::verify), 1U);
  EXPECT_EQ(metrics.status_codes, (std::map<int, std::uint64_t>{{200, 1}, {404, 1}}));
  EXPECT_EQ(metrics.latency.min(), 5'000'000U);  // exact: min and max are not bucketed
  EXPECT_EQ(metrics.latency.max(), 7'000'000U);
}

TEST(UserLoop, AFailedExchangeCountsByKindWithoutLatency) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  FakeServer server;
  server.script = [](std::size_t i) {
    return i % 2 == 0 ? Answer{3ms, model::ErrorKind::timeout, 0} : Answer{2ms, {}, 200};
  };
  const UserRun run(flow, server, 4);
  EXPECT_EQ(run.tally.metrics.errors_of(model::ErrorKind::timeout), 2U);
  EXPECT_EQ(run.tally.metrics.succeeded, 2U);
  EXPECT_EQ(run.tally.metrics.latency.count(), 2U);
  EXPECT_EQ(run.tally.metrics.latency.max(), 2'000'000U);
}

// -z: no request starts once the time is up; the one in flight then is counted.
TEST(UserLoop, ATimedUserStartsNoRequestPastTheWindowAndCountsTheLastOne) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  FakeServer server;
  server.script = [](std::size_t) { return Answer{5ms, model::ErrorKind::none, 200}; };
  const UserRun run(flow, server, 0, verify::make_verifier("statusCode", 200), [](UserTask& task) {
    task.tally->window_end = FakeClock::now_ + 12ms;  // starts at 0, 5 and 10 ms; not at 15
  });
  EXPECT_EQ(server.sent.size(), 3U);
  EXPECT_EQ(run.tally.metrics.succeeded, 3U);
  EXPECT_EQ(run.tally.in_flight, 0U);
  EXPECT_EQ(run.finished, 1);
}

// Long-lived connections (WebSocket): the user opens them apart from its messages, counts how
// they end, holds them with --hold and says goodbye; the fake client scripts each step.

model::Request ws_request(std::string target, unsigned short port = 8080) {
  auto r = worker_request(std::move(target), port);
  r.origin.scheme = model::Scheme::ws;
  return r;
}

/// A fake server whose clients hold long-lived connections; each message takes 5 ms.
struct LongLivedServer : FakeServer {
  LongLivedServer() {
    long_lived = true;
    script = [](std::size_t) { return Answer{5ms, model::ErrorKind::none, 200}; };
  }
};

std::function<void(UserTask&)> hold_for(std::chrono::milliseconds hold) {
  return [hold](UserTask& task) { task.hold = hold; };
}

TEST(LongLivedUser, OpensBeforeTheFirstMessageAndAgainAfterTheServerClosed) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  server.script = [](std::size_t i) {
    return i == 1 ? Answer{1ms, model::ErrorKind::closed, 0} : Answer{5ms, {}, 200};
  };
  const UserRun run(flow, server, 4);
  const std::vector<Call> expected{Call::open,     Call::exchange, Call::exchange, Call::open,
                                   Call::exchange, Call::exchange, Call::finish};
  EXPECT_EQ(server.calls, expected);
  const auto& metrics = run.tally.metrics;
  EXPECT_EQ(metrics.succeeded, 3U);
  EXPECT_EQ(metrics.errors_of(model::ErrorKind::closed), 1U);  // the message's failure
  EXPECT_EQ(metrics.connections_opened, 2U);
  EXPECT_EQ(metrics.long_lived.opened, 2U);
  EXPECT_EQ(metrics.long_lived.ended, 2U);  // one closed by the server, one by the goodbye
  EXPECT_EQ(metrics.long_lived.closed_by_server, 1U);
  EXPECT_EQ(metrics.long_lived.failures(), 0U);  // a close frame is no lost connection
  EXPECT_EQ(run.tally.in_flight, 0U);
}

TEST(LongLivedUser, LatencyIsTheMessageAloneAndTheOpenIsItsConnectTime) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  server.open_script = [](std::size_t) { return Answer{50ms, model::ErrorKind::none, 101}; };
  const UserRun run(flow, server, 2);
  const auto& metrics = run.tally.metrics;
  EXPECT_EQ(metrics.latency.count(), 2U);
  EXPECT_EQ(metrics.latency.max(), 5'000'000U);  // not 55 ms: the open moved the clock before
  EXPECT_EQ(metrics.connect.count(), 1U);
  EXPECT_EQ(metrics.connect.min(), 50'000'000U);
  EXPECT_EQ(metrics.status_codes, (std::map<int, std::uint64_t>{{200, 2}}));  // no 101
}

TEST(LongLivedUser, AFailedOpenIsThatRequestsFailureWithItsStatus) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  server.open_script = [](std::size_t i) {
    return i == 0 ? Answer{1ms, model::ErrorKind::handshake, 403} : Answer{};
  };
  const UserRun run(flow, server, 3);
  const std::vector<Call> expected{Call::open, Call::open, Call::exchange, Call::exchange,
                                   Call::finish};
  EXPECT_EQ(server.calls, expected);
  const auto& metrics = run.tally.metrics;
  EXPECT_EQ(metrics.completed(), 3U);
  EXPECT_EQ(metrics.errors_of(model::ErrorKind::handshake), 1U);
  EXPECT_EQ(metrics.status_codes, (std::map<int, std::uint64_t>{{200, 2}, {403, 1}}));
  EXPECT_EQ(metrics.latency.count(), 2U);  // a refused upgrade has no message latency
  EXPECT_EQ(metrics.long_lived.failed[static_cast<std::size_t>(model::ErrorKind::handshake)], 1U);
  EXPECT_EQ(metrics.long_lived.failures(), 1U);
  EXPECT_EQ(metrics.long_lived.opened, 1U);
  EXPECT_EQ(metrics.long_lived.ended, 1U);  // a connection that never opened never ends
}

TEST(LongLivedUser, ALostConnectionCountsAsAFailureOfItsKind) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  server.script = [](std::size_t i) {
    return i == 0 ? Answer{30ms, model::ErrorKind::timeout, 0} : Answer{5ms, {}, 200};
  };
  const UserRun run(flow, server, 2);
  const auto& counts = run.tally.metrics.long_lived;
  EXPECT_EQ(counts.opened, 2U);
  EXPECT_EQ(counts.ended, 2U);
  EXPECT_EQ(counts.closed_by_server, 0U);
  EXPECT_EQ(counts.failed[static_cast<std::size_t>(model::ErrorKind::timeout)], 1U);
}

TEST(LongLivedUser, HoldKeepsEachOpenConnectionThenSaysGoodbye) {
  // Two servers: each destination's client is held once, after every round, then finished.
  const Flow flow({ws_request("/a"), ws_request("/b", 9090)}, model::Plan{}, false);
  LongLivedServer server;
  const UserRun run(flow, server, 2, verify::make_verifier("statusCode", 200), hold_for(5s));
  const std::vector<Call> expected{Call::open,     Call::exchange, Call::open, Call::exchange,
                                   Call::exchange, Call::exchange, Call::hold, Call::hold,
                                   Call::finish,   Call::finish};
  EXPECT_EQ(server.calls, expected);
  ASSERT_EQ(server.held_until.size(), 2U);
  EXPECT_EQ(server.held_until[0], server.held_until[1]);  // one deadline for the user
  EXPECT_NE(server.held_until[0], std::chrono::steady_clock::time_point::max());
  const auto& counts = run.tally.metrics.long_lived;
  EXPECT_EQ(counts.opened, 2U);
  EXPECT_EQ(counts.ended, 2U);  // by the hold's end; the goodbye after it counts nothing more
  EXPECT_EQ(counts.closed_by_server, 0U);
  EXPECT_EQ(counts.failures(), 0U);
  EXPECT_EQ(run.finished, 1);
}

TEST(LongLivedUser, AHoldApartEndsTheUserWhenTheLastOfItsConnectionsIsOver) {
  // The WebSocket client's way: the user's coroutine ends and each client holds by itself; the
  // user is over (counted, its goodbyes said, the engine told) once every hold is.
  const Flow flow({ws_request("/a"), ws_request("/b", 9090)}, model::Plan{}, false);
  LongLivedServer server;
  server.holds_apart = true;
  server.hold_outcome = model::ErrorKind::closed;
  const UserRun run(flow, server, 1, verify::make_verifier("statusCode", 200), hold_for(5s));
  const std::vector<Call> expected{Call::open, Call::exchange, Call::open,   Call::exchange,
                                   Call::hold, Call::hold,     Call::finish, Call::finish};
  EXPECT_EQ(server.calls, expected);
  ASSERT_EQ(server.held_until.size(), 2U);
  EXPECT_EQ(server.held_until[0], server.held_until[1]);
  const auto& counts = run.tally.metrics.long_lived;
  EXPECT_EQ(counts.opened, 2U);
  EXPECT_EQ(counts.ended, 2U);
  EXPECT_EQ(counts.closed_by_server, 2U);
  EXPECT_EQ(run.tally.users_running, 0U);
  EXPECT_EQ(run.finished, 1);
}

TEST(LongLivedUser, AConnectionLostDuringAHoldApartCountsByItsKind) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  server.holds_apart = true;
  server.hold_outcome = model::ErrorKind::timeout;  // an unanswered --ping
  const UserRun run(flow, server, 1, verify::make_verifier("statusCode", 200), hold_for(5s));
  const auto& counts = run.tally.metrics.long_lived;
  EXPECT_EQ(counts.ended, 1U);
  EXPECT_EQ(counts.failed[static_cast<std::size_t>(model::ErrorKind::timeout)], 1U);
  EXPECT_EQ(run.finished, 1);
}

TEST(LongLivedUser, HoldWithoutSecondsLastsUntilTheRunStopsAndCountsHowItEnded) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  server.hold_outcome = model::ErrorKind::closed;
  const UserRun run(flow, server, 1, verify::make_verifier("statusCode", 200),
                    hold_for(std::chrono::milliseconds::max()));
  ASSERT_EQ(server.held_until.size(), 1U);
  EXPECT_EQ(server.held_until[0], std::chrono::steady_clock::time_point::max());
  EXPECT_EQ(run.tally.metrics.long_lived.ended, 1U);
  EXPECT_EQ(run.tally.metrics.long_lived.closed_by_server, 1U);
}

TEST(LongLivedUser, AConnectionThatIsNoLongerOpenIsNotHeld) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  server.script = [](std::size_t) { return Answer{1ms, model::ErrorKind::closed, 0}; };
  const UserRun run(flow, server, 1, verify::make_verifier("statusCode", 200), hold_for(5s));
  EXPECT_EQ(server.calls, (std::vector<Call>{Call::open, Call::exchange, Call::finish}));
  EXPECT_EQ(run.tally.metrics.long_lived.ended, 1U);
}

TEST(LongLivedUser, AStoppingRunSendsNothingMoreAndDoesNotHold) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  // The stop (Ctrl-C, -timeout) arrives while the second message is out.
  const auto stop_during_second = [&server](UserTask& task) {
    task.hold = 5s;
    server.script = [tally = task.tally](std::size_t i) {
      if (i == 1) tally->stopping = true;
      return Answer{5ms, model::ErrorKind::none, 200};
    };
  };
  const UserRun run(flow, server, 10, verify::make_verifier("statusCode", 200), stop_during_second);
  EXPECT_EQ(server.calls,
            (std::vector<Call>{Call::open, Call::exchange, Call::exchange, Call::finish}));
  EXPECT_EQ(run.tally.metrics.completed(), 2U);  // the message out when the stop came counts
  EXPECT_EQ(run.tally.metrics.long_lived.ended, 1U);
  EXPECT_EQ(run.finished, 1);
}

TEST(LongLivedUser, AStopDuringAHoldEndsTheOtherHoldsToo) {
  // A user's connections are held at once; the engine ends every hold under way (with --hold
  // alone, until a time that never comes), and each connection is said goodbye to.
  const Flow flow({ws_request("/a"), ws_request("/b", 9090)}, model::Plan{}, false);
  LongLivedServer server;
  const auto stop_while_held = [&server](UserTask& task) {
    task.hold = std::chrono::milliseconds::max();
    server.while_held = [tally = task.tally] { tally->stopping = true; };
  };
  const UserRun run(flow, server, 1, verify::make_verifier("statusCode", 200), stop_while_held);
  const std::vector<Call> expected{Call::open, Call::exchange, Call::open,   Call::exchange,
                                   Call::hold, Call::hold,     Call::finish, Call::finish};
  EXPECT_EQ(server.calls, expected);
  EXPECT_EQ(run.tally.metrics.long_lived.ended, 2U);
  EXPECT_EQ(run.finished, 1);
}

TEST(LongLivedUser, ARunStoppedBeforeTheUserStartedOpensNothing) {
  const Flow flow({ws_request("/echo")}, model::Plan{}, false);
  LongLivedServer server;
  const UserRun run(flow, server, 10, verify::make_verifier("statusCode", 200), [](UserTask& task) {
    task.hold = 5s;
    task.tally->stopping = true;
  });
  EXPECT_EQ(server.calls, std::vector<Call>{Call::finish});
  EXPECT_EQ(run.tally.metrics.completed(), 0U);
  EXPECT_EQ(run.tally.metrics.long_lived, statistics::ConnectionCounts{});
}

TEST(LongLivedUser, RequestResponseClientsAreNeitherOpenedApartNorHeld) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  FakeServer server;  // not long-lived: HTTP's clients open inside exchange()
  const UserRun run(flow, server, 2, verify::make_verifier("statusCode", 200), hold_for(5s));
  EXPECT_EQ(server.calls, (std::vector<Call>{Call::exchange, Call::exchange, Call::finish}));
  EXPECT_EQ(run.tally.metrics.long_lived, statistics::ConnectionCounts{});
}

TEST(LongLivedUser, ListenOpensWithoutSendingAndRecordsEachPushWithItsGap) {
  // --listen without -data: no round, the connection opened for the listening, each of the
  // three messages the server pushes 100 ms apart a success whose latency is that gap.
  const Flow flow({ws_request("/feed")}, model::Plan{}, false);
  LongLivedServer server;
  server.pushed = 3;
  server.push_gap = 100ms;
  const UserRun run(flow, server, 0, verify::make_verifier("statusCode", 200),
                    [](UserTask& task) { task.listen = true; });
  const std::vector<Call> expected{Call::open, Call::hold, Call::finish};
  EXPECT_EQ(server.calls, expected);
  const auto& metrics = run.tally.metrics;
  EXPECT_EQ(metrics.succeeded, 3U);
  EXPECT_EQ(metrics.failed, 0U);
  EXPECT_EQ(metrics.latency.min(), 100'000'000U);
  EXPECT_EQ(metrics.latency.max(), 100'000'000U);
  EXPECT_EQ(metrics.long_lived.opened, 1U);
  EXPECT_EQ(metrics.long_lived.ended, 1U);
  ASSERT_EQ(server.held_until.size(), 1U);
  EXPECT_EQ(server.held_until[0], std::chrono::steady_clock::time_point::max());
}

TEST(LongLivedUser, ListenWithoutDataOpensInTheStartWindow) {
  // A long-lived run starts users through a window (start_users): a listening user that sends
  // nothing is starting until its connection is open, as one that sends is until its reply.
  const Flow flow({ws_request("/feed")}, model::Plan{}, false);
  LongLivedServer server;
  ThreadTally* tally = nullptr;
  std::vector<std::uint64_t> starting_while_opening;
  server.while_opening = [&] { starting_while_opening.push_back(tally->users_starting); };
  const UserRun run(flow, server, 0, verify::make_verifier("statusCode", 200), [&](UserTask& task) {
    task.listen = true;
    task.counted_starting = true;
    tally = task.tally;
    ++tally->users_starting;  // as start_users counts it
  });
  EXPECT_EQ(starting_while_opening, std::vector<std::uint64_t>{1});
  EXPECT_EQ(run.tally.users_starting, 0U);
  EXPECT_EQ(run.tally.metrics.long_lived.opened, 1U);
}

// An HTTP/2 user under --hold: its connection opens inside its first exchange (the latency
// includes the connect), counts as long-lived, and is held after the rounds.

/// A fake server whose clients open their connections within exchanges and hold them.
struct HeldHttp2Server : FakeServer {
  HeldHttp2Server() {
    opens_within = true;
    script = [](std::size_t) { return Answer{5ms, model::ErrorKind::none, 200}; };
  }
};

TEST(HeldHttp2User, CountsTheConnectionItsFirstExchangeOpenedThenHoldsIt) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  HeldHttp2Server server;
  const UserRun run(flow, server, 3, verify::make_verifier("statusCode", 200), hold_for(5s));
  const std::vector<Call> expected{Call::exchange, Call::exchange, Call::exchange, Call::hold,
                                   Call::finish};
  EXPECT_EQ(server.calls, expected);
  EXPECT_EQ(run.tally.metrics.completed(), 3U);
  EXPECT_EQ(run.tally.metrics.long_lived.opened, 1U);
  EXPECT_EQ(run.tally.metrics.long_lived.ended, 1U);  // by the hold's end
  EXPECT_EQ(run.tally.metrics.long_lived.closed_by_server, 0U);
  EXPECT_EQ(run.tally.metrics.long_lived.failures(), 0U);
}

TEST(HeldHttp2User, AConnectionReplacedWithinAnExchangeWasEndedByTheServer) {
  // The server's GOAWAY after the first response: the second exchange opens a new connection.
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  HeldHttp2Server server;
  server.replaces = [](std::size_t i) { return i == 1; };
  const UserRun run(flow, server, 3, verify::make_verifier("statusCode", 200), hold_for(5s));
  const auto& counts = run.tally.metrics.long_lived;
  EXPECT_EQ(counts.opened, 2U);
  EXPECT_EQ(counts.ended, 2U);  // the replaced one, and the held one at the hold's end
  EXPECT_EQ(counts.closed_by_server, 1U);
  EXPECT_EQ(counts.failures(), 0U);
}

TEST(HeldHttp2User, AFailedExchangeLosesItsConnectionAndTheNextOpensAnother) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  HeldHttp2Server server;
  server.script = [](std::size_t i) {
    return i == 1 ? Answer{30ms, model::ErrorKind::timeout, 0} : Answer{5ms, {}, 200};
  };
  const UserRun run(flow, server, 3, verify::make_verifier("statusCode", 200), hold_for(5s));
  const auto& counts = run.tally.metrics.long_lived;
  EXPECT_EQ(counts.opened, 2U);
  EXPECT_EQ(counts.ended, 2U);  // the lost one and the held one
  EXPECT_EQ(counts.failed[static_cast<std::size_t>(model::ErrorKind::timeout)], 1U);
  EXPECT_EQ(counts.failures(), 1U);
}

TEST(HeldHttp2User, AConnectionThatCouldNotOpenFailedButNeverEnded) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  HeldHttp2Server server;
  server.hold_outcome = model::ErrorKind::closed;  // then the server closes the held one
  server.script = [](std::size_t i) {
    return i == 0 ? Answer{1ms, model::ErrorKind::connect, 0} : Answer{5ms, {}, 200};
  };
  const UserRun run(flow, server, 2, verify::make_verifier("statusCode", 200), hold_for(5s));
  const auto& counts = run.tally.metrics.long_lived;
  EXPECT_EQ(counts.opened, 1U);
  EXPECT_EQ(counts.ended, 1U);
  EXPECT_EQ(counts.closed_by_server, 1U);
  EXPECT_EQ(counts.failed[static_cast<std::size_t>(model::ErrorKind::connect)], 1U);
  EXPECT_EQ(counts.failures(), 1U);
}

TEST(HeldHttp2User, AStoppingRunSaysGoodbyeToTheConnectionWithoutHolding) {
  const Flow flow({worker_request("/")}, model::Plan{}, false);
  HeldHttp2Server server;
  const auto stop_during_second = [&server](UserTask& task) {
    task.hold = std::chrono::milliseconds::max();
    server.script = [tally = task.tally](std::size_t i) {
      if (i == 1) tally->stopping = true;
      return Answer{5ms, model::ErrorKind::none, 200};
    };
  };
  const UserRun run(flow, server, 10, verify::make_verifier("statusCode", 200), stop_during_second);
  EXPECT_EQ(server.calls, (std::vector<Call>{Call::exchange, Call::exchange, Call::finish}));
  EXPECT_EQ(run.tally.metrics.long_lived.opened, 1U);
  EXPECT_EQ(run.tally.metrics.long_lived.ended, 1U);  // by the goodbye
}

}  // namespace
}  // namespace stampede::server
