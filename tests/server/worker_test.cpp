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
using testing::FakeClock;
using testing::FakeServer;

model::Request request(std::string target, unsigned short port = 8080) {
  model::Request r;
  r.origin.host = "127.0.0.1";
  r.origin.port = port;
  r.target = std::move(target);
  return r;
}

/// Runs one user over `flow` for `rounds` rounds on the fake server; returns its shard.
struct UserRun {
  UserRun(const Flow& flow, FakeServer& server, std::uint64_t rounds,
          std::unique_ptr<verify::Verifier> verifier = verify::make_verifier("statusCode", 200))
      : verifier_(std::move(verifier)), factory_(testing::fake_factory(server)) {
    shard.steps.resize(flow.steps().size() > 1 ? flow.steps().size() : 0);
    shard.users_running = 1;
    client::ThreadContext thread{context_.get_executor(), &watchdog_};
    UserTask task;
    task.shard = &shard;
    task.flow = &flow;
    task.verifier = verifier_.get();
    task.thread = &thread;
    task.make_client = &factory_;
    task.now = &FakeClock::now;
    task.rounds = rounds;
    task.on_finish = [this] { ++finished; };
    boost::asio::co_spawn(context_, run_user(std::move(task)), boost::asio::detached);
    context_.run();
  }

  Shard shard;
  int finished = 0;

 private:
  boost::asio::io_context context_;
  client::Watchdog watchdog_{1s};
  std::unique_ptr<verify::Verifier> verifier_;
  ClientFactory factory_;
};

TEST(UserLoop, SendsEveryStepInOrderEachRoundWithAClientPerDestination) {
  const Flow flow({request("/a"), request("/b", 9090), request("/c")}, model::Plan{}, false);
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
  EXPECT_EQ(run.shard.users_running, 0U);
  EXPECT_EQ(run.shard.in_flight, 0U);
  EXPECT_EQ(run.shard.metrics.completed(), 6U);
  EXPECT_EQ(run.shard.steps[1].completed(), 2U);
}

TEST(UserLoop, LatencyIsTheExchangeAndTheVerifierDecidesSuccess) {
  const Flow flow({request("/")}, model::Plan{}, false);
  FakeServer server;
  server.script = [](std::size_t i) {
    return i == 0 ? Answer{5ms, model::ErrorKind::none, 200} : Answer{7ms, {}, 404};
  };
  const UserRun run(flow, server, 2);
  const auto& metrics = run.shard.metrics;
  EXPECT_EQ(metrics.succeeded, 1U);
  EXPECT_EQ(metrics.errors_of(model::ErrorKind::verify), 1U);
  EXPECT_EQ(metrics.status_codes, (std::map<int, std::uint64_t>{{200, 1}, {404, 1}}));
  EXPECT_EQ(metrics.latency.min(), 5'000'000U);  // exact: min and max are not bucketed
  EXPECT_EQ(metrics.latency.max(), 7'000'000U);
}

TEST(UserLoop, AFailedExchangeCountsByKindWithoutLatency) {
  const Flow flow({request("/")}, model::Plan{}, false);
  FakeServer server;
  server.script = [](std::size_t i) {
    return i % 2 == 0 ? Answer{3ms, model::ErrorKind::timeout, 0} : Answer{2ms, {}, 200};
  };
  const UserRun run(flow, server, 4);
  EXPECT_EQ(run.shard.metrics.errors_of(model::ErrorKind::timeout), 2U);
  EXPECT_EQ(run.shard.metrics.succeeded, 2U);
  EXPECT_EQ(run.shard.metrics.latency.count(), 2U);
  EXPECT_EQ(run.shard.metrics.latency.max(), 2'000'000U);
}

}  // namespace
}  // namespace stampede::server
