// plan_capacity(): the seeds' rule of thumb, PV x 80% / (86,400 s x 20%), in whole servers.
#include "server/statistics/capacity_plan.hpp"

#include <gtest/gtest.h>

namespace stampede::statistics {
namespace {

TEST(CapacityPlan, ThirtyMillionViewsPeakAt1389ASecond) {
  const auto plan = plan_capacity({30'000'000, 0.8, 0.2, 500});
  EXPECT_NEAR(plan.peak_qps, 1388.889, 0.001);  // 24,000,000 / 17,280 s
  EXPECT_EQ(plan.servers_needed, 3U);           // 2.78 servers' worth
}

TEST(CapacityPlan, AnExactFitNeedsNoExtraServerAndNothingMeasuredNeedsNone) {
  EXPECT_EQ(plan_capacity({86'400, 1, 1, 1}).servers_needed, 1U);
  EXPECT_EQ(plan_capacity({86'400 * 2, 1, 1, 1}).servers_needed, 2U);
  EXPECT_EQ(plan_capacity({86'400 * 2 + 1, 1, 1, 1}).servers_needed, 3U);
  EXPECT_EQ(plan_capacity({1000, 0.8, 0.2, 0}).servers_needed, 0U);
}

TEST(CapacityPlan, TheSharesMoveThePeak) {
  // Half the views in a tenth of the day: 5x the day's mean rate.
  EXPECT_NEAR(plan_capacity({8'640'000, 0.5, 0.1, 1}).peak_qps, 500, 1e-9);
}

}  // namespace
}  // namespace stampede::statistics
