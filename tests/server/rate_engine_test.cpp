// --rate and --stages through the engine on a fake client (real timers, no sockets): exact
// totals, the cap's wait counted in latency, requests the window left unsent, users that follow
// the stages.
#include <gtest/gtest.h>

#include "server/engine.hpp"
#include "tests/server/fake_client.hpp"

namespace stampede::server {
namespace {

using namespace std::chrono_literals;

model::Request rate_request() {
  model::Request r;
  r.origin.host = "127.0.0.1";
  r.origin.port = 8080;  // the fake client never connects
  r.target = "/";
  return r;
}

/// A --rate run of `users` users on one thread whose exchanges take `service` of wall time.
statistics::Summary run_at_rate(double rate, std::uint64_t total, std::chrono::milliseconds window,
                                std::uint64_t users, std::chrono::milliseconds service) {
  testing::FakeServer server;
  server.wall_delay = service;
  model::Plan plan;
  plan.rate = rate;
  plan.rate_rounds = total;
  plan.duration = window;
  plan.users = users;
  plan.threads = 1;
  Engine engine({rate_request()}, plan, verify::make_verifier("statusCode", 200),
                testing::fake_factory(server));
  auto summary = engine.run([](const statistics::Summary&) {});
  EXPECT_EQ(server.completed.load(), summary.total.completed());
  return summary;
}

TEST(RateEngine, EveryRequestOfTheTotalIsSentOnceAndTimedFromWhenItWasDue) {
  const auto summary = run_at_rate(1000, 40, 0ms, 50, 1ms);
  const auto& total = summary.total;
  EXPECT_EQ(total.succeeded, 40U);
  EXPECT_EQ(total.rate.scheduled, 40U);
  EXPECT_EQ(total.rate.due, 40U);
  EXPECT_EQ(total.rate.service_time.count(), 40U);
  EXPECT_EQ(total.rate.lag.count(), 40U);
  EXPECT_EQ(total.rate.capped, 0U);  // 50 users for 40 requests
  EXPECT_EQ(total.rate.missed, 0U);
  EXPECT_EQ(summary.stop_reason, statistics::StopReason::completed);
  EXPECT_EQ(summary.users_running, 0U);
  EXPECT_LE(summary.users_started, 40U);  // started as needed, not all 50
  // Each latency counts from the due time, so it is never below its own service time.
  EXPECT_GE(total.latency.min(), total.rate.service_time.min());
  EXPECT_GE(total.latency.max(), total.rate.service_time.max());
}

// One user, 5 ms a request, a request due every 0.5 ms: after the first, every request waits
// for the user (the first nine while it is on its first request), and the last one's latency
// holds all the waiting before it.
TEST(RateEngine, PastTheCapRequestsWaitAndTheirLatencyCountsTheWait) {
  const auto summary = run_at_rate(2000, 20, 0ms, 1, 5ms);
  const auto& total = summary.total;
  EXPECT_EQ(total.succeeded, 20U);
  EXPECT_EQ(total.rate.capped, 19U);
  // Those due at 0.5 to 4.5 ms came while the user was still on its first request: the report
  // says the cap was reached by a user starting, not by users busy serving.
  EXPECT_GE(total.rate.capped_starting, 9U);
  EXPECT_LE(total.rate.capped_starting, total.rate.capped);
  EXPECT_EQ(summary.users_started, 1U);
  EXPECT_GE(total.rate.service_time.min(), 5'000'000U);
  // The last, due at 9.5 ms, could start only after the 19 before it were served one after
  // another: its latency holds all of their service times, however long the machine made them.
  EXPECT_GE(total.latency.max(), 90'000'000U);
  const auto served = static_cast<std::uint64_t>(total.rate.service_time.exact().sum);
  EXPECT_GE(total.latency.max() + 9'500'000U, served);
}

// -z 50ms at 1000/s: 50 requests are due; one user of 30 ms a request sends a few, and the rest,
// still waiting when the window closes, are missed: never sent, never lost.
TEST(RateEngine, RequestsStillWaitingWhenTheWindowEndsAreMissed) {
  const auto summary = run_at_rate(1000, 0, 50ms, 1, 30ms);
  const auto& total = summary.total;
  EXPECT_EQ(total.completed() + total.rate.missed + summary.abandoned, 50U);
  EXPECT_EQ(total.rate.due, 50U);
  EXPECT_GE(total.completed(), 1U);
  EXPECT_GE(total.rate.missed, 1U);
  EXPECT_EQ(total.rate.capped, 49U);
  EXPECT_EQ(summary.stop_reason, statistics::StopReason::duration);
}

// -z 5ms at a million a second on 5000 users: the users started last are handed their first
// request and find the window over before they can send it. Each is missed, not lost: every
// request due is completed, abandoned or missed.
TEST(RateEngine, AFirstRequestItsUserHadNoTimeToSendIsMissed) {
  const auto summary = run_at_rate(1e6, 0, 5ms, 5000, 1ms);
  const auto& total = summary.total;
  EXPECT_EQ(total.rate.scheduled + total.rate.missed + summary.abandoned, total.rate.due);
  EXPECT_EQ(total.completed(), total.rate.scheduled);
  EXPECT_GE(total.rate.due, 4000U);
}

// --stages 150ms:4,150ms:0 on two threads: four users start as the level climbs and stop as it
// falls, none started twice, and the run lasts the stages.
TEST(StagesEngine, UsersStartAndStopAlongTheStages) {
  testing::FakeServer server;
  server.wall_delay = 1ms;
  model::Plan plan;
  plan.stages = {{150ms, 4}, {150ms, 0}};
  plan.users = 4;
  plan.duration = 300ms;
  plan.rounds_per_user = 0;
  plan.threads = 2;
  Engine engine({rate_request()}, plan, verify::make_verifier("statusCode", 200),
                testing::fake_factory(server));
  const auto began = std::chrono::steady_clock::now();
  const auto summary = engine.run([](const statistics::Summary&) {});
  EXPECT_GE(std::chrono::steady_clock::now() - began, 300ms);
  EXPECT_EQ(summary.users_started, 4U);
  EXPECT_EQ(summary.users_running, 0U);
  EXPECT_EQ(summary.total.completed(), server.completed.load());
  EXPECT_GT(summary.total.succeeded, 0U);
  EXPECT_EQ(summary.stop_reason, statistics::StopReason::duration);
}

}  // namespace
}  // namespace stampede::server
