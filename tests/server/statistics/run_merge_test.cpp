// merge_runs adds counts and histograms exactly and lines seconds up on the wall clock.
#include "server/statistics/run_merge.hpp"

#include <gtest/gtest.h>

namespace stampede::statistics {
namespace {

using namespace std::chrono_literals;

model::Result ok(std::chrono::nanoseconds latency) {
  model::Result r;
  r.status = 200;
  r.latency = latency;
  return r;
}

/// A run of `seconds` seconds started `start` after the epoch, `per_second` requests a second
/// of `latency` each.
Summary merged_run(std::chrono::nanoseconds start, int seconds, int per_second,
                   std::chrono::nanoseconds latency) {
  Summary summary;
  summary.info.steps = {"GET http://127.0.0.1/"};
  summary.info.users = 2;
  summary.info.latency_per_second = true;
  summary.info.started_at = std::chrono::system_clock::time_point(start);
  for (int s = 0; s < seconds; ++s) {
    Metrics second;
    for (int i = 0; i < per_second; ++i) second.add(ok(latency));
    summary.total.merge(second);
    summary.add_second(second, 1s, 2);
  }
  summary.elapsed = std::chrono::seconds(seconds);
  return summary;
}

TEST(MergeRuns, AddsCountsAndHistograms) {
  const std::vector<Summary> runs{merged_run(100s, 3, 10, 1ms),
                                  merged_run(100s + 200ms, 3, 5, 4ms)};
  const Summary merged = merge_runs(runs);
  EXPECT_EQ(merged.total.succeeded, 45U);
  EXPECT_EQ(merged.total.status_codes.at(200), 45U);
  EXPECT_EQ(merged.total.latency.count(), 45U);
  EXPECT_EQ(merged.total.latency.max(), 4'000'000U);
  EXPECT_EQ(merged.info.users, 4U);
  EXPECT_EQ(merged.elapsed, 3200ms);
}

TEST(MergeRuns, LinesSecondsUpOnTheWallClock) {
  // The second run starts 2.2 s later: its first second ends 3.2 s after the first run's start,
  // with the first run's third second (to the nearest second).
  const std::vector<Summary> runs{merged_run(100s, 3, 10, 1ms),
                                  merged_run(102s + 200ms, 2, 5, 4ms)};
  const Summary merged = merge_runs(runs);
  ASSERT_EQ(merged.per_second.size(), 4U);
  EXPECT_EQ(merged.per_second[2].succeeded, 15U);
  EXPECT_DOUBLE_EQ(merged.per_second[2].elapsed_s, 3.0);
  EXPECT_DOUBLE_EQ(merged.per_second[2].max_ms, 4.0);
  EXPECT_DOUBLE_EQ(merged.per_second[2].min_ms, 1.0);
  EXPECT_EQ(merged.per_second[3].succeeded, 5U);
  EXPECT_EQ(merged.elapsed, 4200ms);
}

TEST(MergeRuns, RefusesDifferentRequests) {
  std::vector<Summary> runs{merged_run(0s, 1, 1, 1ms), merged_run(0s, 1, 1, 1ms)};
  runs[1].info.steps = {"GET http://127.0.0.1/other"};
  EXPECT_THROW(merge_runs(runs), MergeError);
}

/// `run` as shard `index` of `count` of the run `id`, started `skew` after its --start-at.
Summary shard(unsigned index, unsigned count, std::string id = "r1",
              std::chrono::nanoseconds skew = 1ms) {
  auto summary = merged_run(100s + skew, 2, 10, 1ms);
  const std::chrono::system_clock::time_point start_at(100s);
  summary.sharding =
      Sharding{std::move(id),
               count,
               {{index, summary.info.started_at, start_at, StopReason::completed, std::nullopt}}};
  return summary;
}

TEST(MergeRuns, ListsTheShardsAndTheMissingOnes) {
  const std::vector<Summary> runs{shard(3, 4, "r1", 2ms), shard(0, 4, "r1", 5ms)};
  const Summary merged = merge_runs(runs);
  ASSERT_TRUE(merged.sharding);
  ASSERT_EQ(merged.sharding->shards.size(), 2U);
  EXPECT_EQ(merged.sharding->shards[0].index, 0U);  // in order of index
  EXPECT_EQ(merged.sharding->missing(), (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(merged.sharding->worst_skew(), 5ms);
  EXPECT_EQ(merged.sharding->start_spread(), 3ms);
  EXPECT_EQ(merged.total.succeeded, 40U);
  EXPECT_FALSE(merged.sharding->any_interrupted());
}

TEST(MergeRuns, RefusesTheSameShardTwiceAndShardsOfOtherRuns) {
  EXPECT_THROW(merge_runs(std::vector{shard(1, 4), shard(2, 4), shard(1, 4)}), MergeError);
  EXPECT_THROW(merge_runs(std::vector{shard(1, 4, "r1"), shard(2, 4, "r2")}), MergeError);
  EXPECT_THROW(merge_runs(std::vector{shard(1, 4), shard(2, 3)}), MergeError);
  EXPECT_THROW(merge_runs(std::vector{shard(1, 4), merged_run(100s, 2, 10, 1ms)}), MergeError);
  EXPECT_THROW(merge_runs(std::vector{merged_run(100s, 2, 10, 1ms), shard(1, 4)}), MergeError);
}

TEST(MergeRuns, RefusesShardsOfOneRunIdRunWithOtherFlags) {
  auto a = shard(0, 2);
  auto b = shard(1, 2);
  a.sharding->plan = "0123456789ab";
  b.sharding->plan = "ba9876543210";  // -c 50 beside -c 10, both --run-id r1
  try {
    (void)merge_runs(std::vector{a, b});
    ADD_FAILURE() << "merged";
  } catch (const MergeError& error) {
    EXPECT_EQ(std::string(error.what()),
              "shard 2/2 of run r1 was run with other flags than shard 1/2 of run r1 (-c, -n, "
              "-z, --rate or the URL: the shards of one run share every flag but --shard and the "
              "outputs)");
  }
  b.sharding->plan = a.sharding->plan;
  EXPECT_EQ(merge_runs(std::vector{a, b}).sharding->plan, "0123456789ab");
  b.sharding->plan.clear();  // saved before plans were kept: merged on trust
  EXPECT_EQ(merge_runs(std::vector{b, a}).sharding->plan, "0123456789ab");
}

TEST(MergeRuns, KnowsAnInterruptedShard) {
  auto stopped = shard(1, 2);
  stopped.sharding->shards[0].stop_reason = StopReason::interrupted;
  const auto merged = merge_runs(std::vector{shard(0, 2), stopped});
  EXPECT_TRUE(merged.sharding->missing().empty());
  EXPECT_TRUE(merged.sharding->any_interrupted());
}

}  // namespace
}  // namespace stampede::statistics
