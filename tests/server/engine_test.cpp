// Engine tests against the built-in target in this process: exact counts, ticks, time limits.
#include "server/engine.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <thread>

#include "target_server/server.hpp"
#include "tests/server/fake_client.hpp"

namespace stampede::server {
namespace {

/// The built-in target on an ephemeral loopback port, served from a background thread.
class Target {
 public:
  Target() : server_({"127.0.0.1", 0, 1}), thread_([this] { server_.run(); }) {}
  ~Target() {
    server_.stop();
    thread_.join();
  }
  model::Request request(std::string target) const {
    model::Request r;
    r.origin.host = "127.0.0.1";
    r.origin.port = server_.port();
    r.target = std::move(target);
    return r;
  }
  std::string url(const std::string& target) const {
    return "http://127.0.0.1:" + std::to_string(server_.port()) + target;
  }

 private:
  target_server::Server server_;
  std::thread thread_;
};

/// A request to 127.0.0.1:8080 (the fake client never connects).
model::Request model_request(std::string target) {
  model::Request r;
  r.origin.host = "127.0.0.1";
  r.origin.port = 8080;
  r.target = std::move(target);
  return r;
}

statistics::Summary run(std::vector<model::Request> steps, model::Plan plan,
                        std::vector<statistics::Summary>* ticks = nullptr) {
  Engine engine(std::move(steps), plan, verify::make_verifier("statusCode", 200));
  return engine.run([ticks](const statistics::Summary& now) {
    if (ticks != nullptr) ticks->push_back(now);
  });
}

std::uint64_t per_second_completed(const statistics::Summary& summary) {
  return std::accumulate(summary.per_second.begin(), summary.per_second.end(), std::uint64_t{0},
                         [](auto sum, const auto& s) { return sum + s.succeeded + s.failed; });
}

TEST(Engine, EveryRequestIsCountedOnce) {
  Target target;
  model::Plan plan;
  plan.users = 7;
  plan.rounds_per_user = 30;
  plan.threads = 2;
  for (const bool keep_alive : {false, true}) {
    auto request = target.request("/");
    request.keep_alive = keep_alive;
    const auto summary = run({request}, plan);
    EXPECT_EQ(summary.total.succeeded, 210U);
    EXPECT_EQ(summary.total.failed, 0U);
    EXPECT_EQ(summary.total.status_codes.at(200), 210U);
    EXPECT_EQ(summary.total.connections_opened, keep_alive ? 7U : 210U);
    EXPECT_EQ(summary.total.server_software(), "stampede/0.1.0");
    EXPECT_EQ(summary.stop_reason, statistics::StopReason::completed);
    EXPECT_EQ(summary.abandoned, 0U);
    EXPECT_EQ(summary.users_running, 0U);
    EXPECT_EQ(summary.users_started, 7U);
    EXPECT_EQ(per_second_completed(summary), 210U);
  }
}

TEST(Engine, FailuresAreCountedByKindAndStatus) {
  Target target;
  model::Plan plan;
  plan.users = 2;
  plan.rounds_per_user = 5;
  const auto summary = run({target.request("/status/503")}, plan);
  EXPECT_EQ(summary.total.failed, 10U);
  EXPECT_EQ(summary.total.errors_of(model::ErrorKind::verify), 10U);
  EXPECT_EQ(summary.total.status_codes.at(503), 10U);
}

TEST(Engine, StalledRequestsTimeOut) {
  Target target;
  model::Plan plan;
  plan.users = 2;
  plan.rounds_per_user = 1;
  plan.request_timeout = std::chrono::milliseconds(200);
  const auto started = std::chrono::steady_clock::now();
  const auto summary = run({target.request("/delay/5000")}, plan);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
  EXPECT_EQ(summary.total.errors_of(model::ErrorKind::timeout), 2U);
}

/// A run whose users' exchanges each take 1 ms of wall time on a fake client (no sockets).
statistics::Summary run_fake(testing::FakeServer& server, std::vector<model::Request> steps,
                             model::Plan plan, std::vector<statistics::Summary>* ticks = nullptr) {
  server.wall_delay = std::chrono::milliseconds(1);
  Engine engine(std::move(steps), plan, verify::make_verifier("statusCode", 200),
                testing::fake_factory(server));
  return engine.run([ticks](const statistics::Summary& now) {
    if (ticks != nullptr) ticks->push_back(now);
  });
}

// A time limit landing on a tick once lost the thread's metrics (Asio 1.81's channel refuses
// try_send after a cancelled receive); every request must still be counted.
TEST(Engine, TimeLimitKeepsEveryCount) {
  model::Plan plan;
  plan.users = 4;
  plan.rounds_per_user = 0;
  plan.threads = 2;
  plan.run_timeout = std::chrono::seconds(1);
  for (int attempt = 0; attempt < 3; ++attempt) {
    testing::FakeServer server;
    const auto summary = run_fake(server, {model_request("/")}, plan);
    EXPECT_EQ(summary.stop_reason, statistics::StopReason::time_limit);
    // Every exchange that ended was counted; the others were in flight, one at most a user.
    EXPECT_EQ(summary.total.completed(), server.completed.load());
    EXPECT_EQ(server.started.load(), server.completed.load() + summary.abandoned);
    EXPECT_LE(summary.abandoned, 4U);
    EXPECT_EQ(per_second_completed(summary), summary.total.completed());
  }
}

// Stopped while every user waits for its reply: each request started is abandoned, none lost.
TEST(Engine, AStoppedRunCountsEveryRequestStarted) {
  Target target;
  model::Plan plan;
  plan.users = 40;
  plan.rounds_per_user = 1;
  plan.threads = 2;
  plan.run_timeout = std::chrono::milliseconds(500);
  const auto summary = run({target.request("/delay/3000")}, plan);
  EXPECT_EQ(summary.stop_reason, statistics::StopReason::time_limit);
  EXPECT_EQ(summary.users_started, 40U);
  EXPECT_EQ(summary.total.completed(), 0U);
  EXPECT_EQ(summary.abandoned, 40U);
}

TEST(Engine, EachTickAddsOneSecondInOrder) {
  model::Plan plan;
  plan.users = 2;
  plan.rounds_per_user = 0;
  plan.run_timeout = std::chrono::milliseconds(2500);
  testing::FakeServer server;
  std::vector<statistics::Summary> ticks;
  const auto summary = run_fake(server, {model_request("/")}, plan, &ticks);
  ASSERT_FALSE(ticks.empty());
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    EXPECT_EQ(ticks[i].per_second.size(), i + 1);
    if (i > 0) {  // oldest first
      EXPECT_LT(ticks[i - 1].per_second.back().elapsed_s, ticks[i].per_second.back().elapsed_s);
      EXPECT_LE(ticks[i - 1].total.completed(), ticks[i].total.completed());
    }
  }
  EXPECT_EQ(summary.per_second.size(), ticks.size() + 1);  // and the last, partial second
  EXPECT_EQ(per_second_completed(summary), summary.total.completed());
}

std::vector<model::Request> kept(std::vector<model::Request> steps) {
  for (auto& step : steps) step.keep_alive = true;
  return steps;
}

TEST(Engine, AFlowCountsEachStepAndSharesAConnectionPerServer) {
  Target first;
  Target second;
  model::Plan plan;
  plan.users = 3;
  plan.rounds_per_user = 4;
  plan.threads = 2;
  const auto summary =
      run(kept({first.request("/"), first.request("/status/503"), second.request("/json")}), plan);
  EXPECT_EQ(summary.total.completed(), 36U);
  ASSERT_EQ(summary.steps.size(), 3U);
  EXPECT_EQ(summary.steps[0].succeeded, 12U);
  EXPECT_EQ(summary.steps[0].failed, 0U);
  EXPECT_EQ(summary.steps[1].failed, 12U);
  EXPECT_EQ(summary.steps[1].status_codes.at(503), 12U);
  EXPECT_EQ(summary.steps[2].succeeded, 12U);
  EXPECT_EQ(summary.steps[2].document_length(), std::string(R"({"code":200,"msg":"ok"})").size());
  EXPECT_EQ(summary.total.connections_opened, 6U);  // one per user and server
  const std::vector<std::string> names{"GET " + first.url("/"), "GET " + first.url("/status/503"),
                                       "GET " + second.url("/json")};
  EXPECT_EQ(summary.info.steps, names);
}

TEST(Engine, AStoppedFlowsStepsAddUpToItsTotal) {
  model::Plan plan;
  plan.users = 3;
  plan.rounds_per_user = 0;
  plan.threads = 2;
  plan.run_timeout = std::chrono::milliseconds(1500);
  testing::FakeServer server;
  const auto summary = run_fake(server, {model_request("/"), model_request("/json")}, plan);
  ASSERT_EQ(summary.steps.size(), 2U);
  EXPECT_EQ(summary.total.completed(), server.completed.load());
  EXPECT_EQ(summary.steps[0].completed() + summary.steps[1].completed(), summary.total.completed());
  // A user stops between or within rounds: step 1 is ahead of step 2 by at most one a user.
  EXPECT_LE(summary.steps[1].completed(), summary.steps[0].completed());
  EXPECT_LE(summary.steps[0].completed() - summary.steps[1].completed(), 3U);
  EXPECT_EQ(summary.steps[0].latency.count() + summary.steps[1].latency.count(),
            summary.total.latency.count());
}

TEST(Engine, ASingleRequestHasNoPerStepMetrics) {
  Target target;
  model::Plan plan;
  const auto summary = run({target.request("/")}, plan);
  EXPECT_TRUE(summary.steps.empty());
  EXPECT_EQ(summary.info.steps, std::vector<std::string>{"GET " + target.url("/")});
}

TEST(Engine, UnresolvableHostThrows) {
  model::Request request;
  request.origin.host = "no-such-host.invalid";
  EXPECT_THROW(Engine({request}, model::Plan{}, verify::make_verifier("statusCode", 200)),
               std::runtime_error);
}

}  // namespace
}  // namespace stampede::server
