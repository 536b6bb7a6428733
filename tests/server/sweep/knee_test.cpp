// The sweep's judgement: the SLO's bounds, scaling, the knee, and the auto search's levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "server/sweep/knee.hpp"
#include "server/sweep/search.hpp"

namespace stampede::server::sweep {
namespace {

StepFigures knee_step(double level, double qps, double p99_ms = 1, double errors = 0) {
  StepFigures s;
  s.level = level;
  s.qps = qps;
  s.p99_ms = p99_ms;
  s.p90_ms = p99_ms / 2;
  s.p50_ms = p99_ms / 4;
  s.mean_ms = p99_ms / 4;
  s.error_share = errors;
  return s;
}

Slo slo_p99_errors(double p99_ms, double errors) {
  Slo slo;
  slo.latency.push_back({99, p99_ms});
  slo.errors_below = errors;
  return slo;
}

TEST(Slo, NamesTheFirstBoundABreaksAndSaysItselfBack) {
  const auto slo = slo_p99_errors(100, 0.01);
  EXPECT_EQ(slo.text(), "p99<100ms,errors<1%");
  EXPECT_EQ(slo.broken_by(knee_step(10, 100, 99.5, 0.005)), std::nullopt);
  EXPECT_EQ(slo.broken_by(knee_step(10, 100, 120.5)), "p99 120.5 ms >= 100 ms");
  EXPECT_EQ(slo.broken_by(knee_step(10, 100, 1, 0.02)), "errors 2% >= 1%");
  EXPECT_EQ(slo.broken_by(knee_step(10, 100, 1, 0.996947)), "errors 99.69% >= 1%");  // 4 digits
  EXPECT_EQ(Slo{}.text(), "");
  EXPECT_EQ(Slo{}.broken_by(knee_step(10, 100, 1e6, 1)), std::nullopt);
}

TEST(Knee, TheSeedsTableQpsStopsRisingAfter100) {
  // ab at 80, 100, 150, 200 users: QPS grows with the users up to 100, then stays flat.
  const std::vector<StepFigures> steps{knee_step(80, 8000), knee_step(100, 9900),
                                       knee_step(150, 10100), knee_step(200, 10050)};
  const auto knee = find_knee(steps, {});
  EXPECT_EQ(knee.step, 1U);
  EXPECT_EQ(knee.broke, 2U);
  EXPECT_EQ(knee.why, "QPS +2.0% for +50.0% level");
}

TEST(Knee, TheSloBreaksBeforeTheQpsFlattens) {
  const std::vector<StepFigures> steps{knee_step(10, 1000, 20), knee_step(20, 2000, 90),
                                       knee_step(40, 3900, 150)};
  const auto knee = find_knee(steps, slo_p99_errors(100, 0.01));
  EXPECT_EQ(knee.step, 1U);
  EXPECT_EQ(knee.why, "p99 150 ms >= 100 ms");
}

TEST(Knee, NoneBrokeOrTheFirstDid) {
  const std::vector<StepFigures> rising{knee_step(1, 100), knee_step(2, 200), knee_step(4, 390)};
  EXPECT_EQ(find_knee(rising, {}).step, 2U);
  EXPECT_EQ(find_knee(rising, {}).broke, std::nullopt);
  const auto first = find_knee(rising, slo_p99_errors(0.5, 0.01));
  EXPECT_EQ(first.step, std::nullopt);
  EXPECT_EQ(first.broke, 0U);
}

TEST(Knee, FourFifthsOfTheLevelsGrowthStillScales) {
  EXPECT_TRUE(scales(knee_step(100, 1000), knee_step(200, 1800)));  // +100% users, +80% QPS
  EXPECT_FALSE(scales(knee_step(100, 1000), knee_step(200, 1799)));
  EXPECT_TRUE(scales(knee_step(100, 1000), knee_step(105, 1040)));  // a bisection's small step
  EXPECT_FALSE(scales(knee_step(100, 1000), knee_step(105, 1030)));
}

/// Runs a search against a server that serves `capacity` users' worth and no more: QPS rises
/// 100 a user up to it, then stays flat.
std::vector<double> search_levels(SearchBounds bounds, double capacity) {
  AutoSearch search(bounds, {});
  std::vector<double> levels;
  while (auto level = search.next()) {
    levels.push_back(*level);
    search.record(knee_step(*level, 100 * std::min(*level, capacity)));
  }
  return levels;
}

TEST(AutoSearch, DoublesThenBisectsToTheCapacity) {
  const auto levels = search_levels({1, 10000, 20, true}, 24);
  EXPECT_EQ(levels, (std::vector<double>{1, 2, 4, 8, 16, 32, 24, 28, 26}));
}

TEST(AutoSearch, StopsAtItsStepsAndAtTheTop) {
  EXPECT_EQ(search_levels({1, 10000, 4, true}, 24).size(), 4U);
  EXPECT_EQ(search_levels({100, 300, 20, true}, 1000), (std::vector<double>{100, 200, 300}));
}

TEST(AutoSearch, AFirstLevelThatBreaksEndsIt) {
  AutoSearch search({8, 100, 10, true}, slo_p99_errors(10, 0.01));
  search.record(knee_step(8, 800, 50));
  EXPECT_EQ(search.next(), std::nullopt);
  EXPECT_FALSE(search.held());
}

TEST(AutoSearch, ItsKneeIsTheHighestThatHeldAndTheLowestThatBroke) {
  AutoSearch search({1, 10000, 20, true}, {});
  std::vector<StepFigures> steps;
  while (auto level = search.next()) {
    steps.push_back(knee_step(*level, 100 * std::min(*level, 24.0)));
    search.record(steps.back());
  }
  std::sort(steps.begin(), steps.end(),
            [](const auto& a, const auto& b) { return a.level < b.level; });
  const auto knee = search.knee_in(steps);
  ASSERT_TRUE(knee.step && knee.broke);
  EXPECT_EQ(steps[*knee.step].level, 24);
  EXPECT_EQ(steps[*knee.broke].level, 26);
  EXPECT_EQ(knee.why, "QPS +0.0% for +8.3% level");
}

}  // namespace
}  // namespace stampede::server::sweep
