// RateSchedule: each thread's share of one even schedule, bounded by -n's total or -z's window.
#include "server/pacing/rate_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace stampede::server::pacing {
namespace {

using namespace std::chrono_literals;
using Nanos = std::chrono::nanoseconds;

/// Every start of a run's threads, merged and sorted.
std::vector<Nanos> merged(double rate, unsigned threads, std::uint64_t total, Nanos window) {
  std::vector<Nanos> starts;
  for (unsigned i = 0; i < threads; ++i) {
    const RateSchedule schedule(RateProfile(rate), threads, i, total, window);
    for (std::uint64_t k = 0; const auto at = schedule.due(k); ++k) starts.push_back(*at);
  }
  std::sort(starts.begin(), starts.end());
  return starts;
}

TEST(RateSchedule, OneThreadStartsEvenlyFromTheRunsStart) {
  const RateSchedule schedule(RateProfile(4), 1, 0, 3, 0ns);
  EXPECT_EQ(schedule.due(0), 0ms);
  EXPECT_EQ(schedule.due(1), 250ms);
  EXPECT_EQ(schedule.due(2), 500ms);
  EXPECT_EQ(schedule.due(3), std::nullopt);  // -n 3: three in all
}

TEST(RateSchedule, ThreadsInterleaveIntoOneEvenSchedule) {
  const auto starts = merged(1000, 3, 10, 0ns);
  ASSERT_EQ(starts.size(), 10U);
  for (std::size_t j = 0; j < starts.size(); ++j) EXPECT_EQ(starts[j], 1ms * j) << j;
  // Thread 1 of 3 starts the run's requests 1, 4 and 7.
  const RateSchedule second(RateProfile(1000), 3, 1, 10, 0ns);
  EXPECT_EQ(second.due(0), 1ms);
  EXPECT_EQ(second.due(2), 7ms);
  EXPECT_EQ(second.due(3), std::nullopt);
}

TEST(RateSchedule, TheWindowTakesExactlyRateTimesItsLength) {
  EXPECT_EQ(merged(500, 2, 0, 4s).size(), 2000U);  // 0 ms .. 3998 ms
  EXPECT_EQ(merged(3, 1, 0, 1s).size(), 3U);       // 0, 333.3 and 666.6 ms
  EXPECT_EQ(merged(0.5, 2, 0, 5s).size(), 3U);     // 0, 2 and 4 s
}

TEST(RateSchedule, AStartIsComputedFromTheRunsStartSoItNeverDrifts) {
  const RateSchedule schedule(RateProfile(3), 1, 0, 0, 0ns);
  EXPECT_EQ(schedule.due(3'000'000), 1'000'000s);  // a third of a second, a million times
  EXPECT_EQ(schedule.due(1), Nanos(333'333'333));
}

}  // namespace
}  // namespace stampede::server::pacing
