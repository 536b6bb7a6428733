// RateProfile: a fixed rate, and stages of rate from 0, turned into each request's due time.
#include "server/pacing/rate_profile.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace stampede::server::pacing {
namespace {

using namespace std::chrono_literals;

/// Requests due before `end`.
std::uint64_t due_before(const RateProfile& profile, std::chrono::nanoseconds end) {
  std::uint64_t count = 0;
  while (true) {
    const auto at = profile.due(count);
    if (!at || *at >= end) return count;
    ++count;
  }
}

TEST(RateProfile, AFixedRateIsEven) {
  const RateProfile profile(4);
  EXPECT_EQ(profile.due(0), 0ns);
  EXPECT_EQ(profile.due(1), 250ms);
  EXPECT_EQ(profile.due(8), 2s);
  EXPECT_EQ(due_before(profile, 3s), 12U);
  EXPECT_DOUBLE_EQ(static_cast<double>(profile.asked_by(1500ms)), 6.0);
}

TEST(RateProfile, ARampFromZeroAsksForHalfItsTopAndTheSquareRootSpacesIt) {
  // 0 to 1000 a second over 2 s: 1000 t^2 / 4 by t, so 250 in the first second, 750 in the
  // second, then 1000 a second held.
  const RateProfile profile({{2s, 1000}});
  EXPECT_EQ(profile.due(0), 0ns);
  EXPECT_EQ(due_before(profile, 1s), 250U);
  EXPECT_EQ(due_before(profile, 2s), 1000U);
  EXPECT_EQ(due_before(profile, 4s), 3000U);
  EXPECT_NEAR(static_cast<double>(profile.due(250)->count()), 1e9, 1);
  EXPECT_NEAR(static_cast<double>(profile.due(2000)->count()), 3e9, 1);
  EXPECT_NEAR(static_cast<double>(profile.asked_by(4s)), 3000, 1e-6);
}

TEST(RateProfile, StagesRiseHoldAndFallEachByItsArea) {
  // Up to 1000/s over 1 s (500), held 1 s (1000), down to 0 over 1 s (500), then nothing.
  const RateProfile profile({{1s, 1000}, {1s, 1000}, {1s, 0}});
  EXPECT_EQ(due_before(profile, 1s), 500U);
  EXPECT_EQ(due_before(profile, 2s), 1500U);
  EXPECT_EQ(due_before(profile, 10s), 2000U);
  EXPECT_EQ(profile.due(2000), std::nullopt);
  // Falling, the spacing widens: the last requests are further apart than the held ones.
  const auto held = *profile.due(1001) - *profile.due(1000);
  const auto late = *profile.due(1999) - *profile.due(1998);
  EXPECT_EQ(held, 1ms);
  EXPECT_GT(late, 10 * held);
  EXPECT_NEAR(static_cast<double>(profile.asked_by(2500ms)), 1500 + 375, 1e-6);
}

TEST(RateProfile, AStageFromOneRateToAnotherStartsWhereTheLastEnded) {
  // 0 to 100/s over 1 s (50), held 1 s (100), then 100 to 300 over 1 s (200): each stage's
  // first request comes where the one before left off.
  const RateProfile profile({{1s, 100}, {1s, 100}, {1s, 300}});
  EXPECT_EQ(due_before(profile, 1s), 50U);
  EXPECT_EQ(due_before(profile, 2s), 150U);
  EXPECT_EQ(due_before(profile, 3s), 350U);
  EXPECT_NEAR(static_cast<double>(profile.due(150)->count()), 2e9, 1);
}

}  // namespace
}  // namespace stampede::server::pacing
