// Stages: the level along the stages and the moments it steps, exactly.
#include "server/pacing/stages.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace stampede::server::pacing {
namespace {

using namespace std::chrono_literals;
using Nanos = std::chrono::nanoseconds;

// --stages 30s:100,60s:500,30s:0 in the issue's words: ramp up, climb, ramp down.
Stages issue_example() { return Stages({{30s, 100}, {60s, 500}, {30s, 0}}); }

TEST(Stages, TheLevelFollowsStraightLinesBetweenTargets) {
  const auto stages = issue_example();
  EXPECT_EQ(stages.level_at(-1s), 0U);
  EXPECT_EQ(stages.level_at(0s), 0U);
  EXPECT_EQ(stages.level_at(15s), 50U);
  EXPECT_EQ(stages.level_at(30s), 100U);
  EXPECT_EQ(stages.level_at(60s), 300U);
  EXPECT_EQ(stages.level_at(90s), 500U);
  EXPECT_EQ(stages.level_at(105s), 250U);
  EXPECT_EQ(stages.level_at(120s), 0U);
  EXPECT_EQ(stages.level_at(1h), 0U);
  EXPECT_EQ(stages.length(), 120s);
  EXPECT_EQ(stages.peak(), 500U);
}

TEST(Stages, EachStepIsTakenAtTheFirstNanosecondItIsDue) {
  const Stages stages({{3s, 3}, {1s, 3}, {2s, 1}});
  EXPECT_EQ(stages.level_at(999'999'999ns), 0U);
  EXPECT_EQ(stages.level_at(1s), 1U);
  std::vector<Nanos> steps;
  for (auto at = stages.next_change(Nanos(-1)); at; at = stages.next_change(*at)) {
    steps.push_back(*at);
  }
  // Up at 1, 2 and 3 s; flat; down at 5 and 6 s.
  EXPECT_EQ(steps, (std::vector<Nanos>{1s, 2s, 3s, 5s, 6s}));
  EXPECT_EQ(stages.level_at(5s - 1ns), 3U);
  EXPECT_EQ(stages.level_at(5s), 2U);
  EXPECT_EQ(stages.level_at(6s), 1U);
}

// A driver that wakes at next_change() always finds the level changed, even where a step's
// time is not a whole nanosecond: never twice at the same moment, never a step skipped.
TEST(Stages, EveryWakeFindsTheLevelChangedByOne) {
  const Stages stages({{1s, 7}, {1s, 7}, {700ms, 0}, {333ms, 1000}});
  std::uint64_t wakes = 0;
  auto level = stages.level_at(0s);
  for (auto at = stages.next_change(0s); at; at = stages.next_change(*at)) {
    const auto now = stages.level_at(*at);
    EXPECT_EQ(now > level ? now - level : level - now, 1U) << at->count();
    EXPECT_EQ(stages.level_at(*at - 1ns), level);
    level = now;
    ++wakes;
  }
  EXPECT_EQ(wakes, 7U + 7U + 1000U);
  EXPECT_EQ(level, 1000U);
}

TEST(Stages, ThreadSharesAddUpToTheLevel) {
  for (std::uint64_t level = 0; level < 20; ++level) {
    std::uint64_t sum = 0;
    for (unsigned i = 0; i < 3; ++i) sum += thread_share(level, 3, i);
    EXPECT_EQ(sum, level);
  }
  EXPECT_EQ(thread_share(4, 3, 0), 2U);  // users 0 and 3
  EXPECT_EQ(thread_share(4, 3, 2), 1U);  // user 2
}

}  // namespace
}  // namespace stampede::server::pacing
