// Thresholds judged on a run: each figure measured, each comparison, steps, and which ones can
// no longer pass mid-run (--abort-on-fail).
#include "server/statistics/threshold.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "server/statistics/summary.hpp"

namespace stampede::statistics {
namespace {

using namespace std::chrono_literals;

model::Result threshold_result(std::int64_t latency_ms, bool ok) {
  model::Result r;
  r.error = ok ? model::ErrorKind::none : model::ErrorKind::verify;
  r.status = ok ? 200 : 503;
  r.latency = std::chrono::milliseconds{latency_ms};
  return r;
}

/// 98 requests at 10 ms and 2 failures at 100 ms over 2 s; a flow of two steps, the second
/// holding the failures.
Summary threshold_run() {
  Summary s;
  s.steps.resize(2);
  for (int i = 0; i < 98; ++i) {
    s.total.add(threshold_result(10, true));
    s.steps[i % 2].add(threshold_result(10, true));
  }
  for (int i = 0; i < 2; ++i) {
    s.total.add(threshold_result(100, false));
    s.steps[1].add(threshold_result(100, false));
  }
  s.elapsed = 2s;
  return s;
}

Threshold bound(Figure figure, Comparison comparison, double value, double percentile = 99) {
  Threshold t;
  t.text = "t";
  t.figure = figure;
  t.comparison = comparison;
  t.bound = value;
  t.percentile = percentile;
  return t;
}

TEST(Threshold, MeasuresEachFigure) {
  const auto s = threshold_run();
  EXPECT_NEAR(judge(bound(Figure::percentile, Comparison::less, 1, 50), s).measured, 10, 0.1);
  EXPECT_NEAR(judge(bound(Figure::percentile, Comparison::less, 1, 99), s).measured, 100, 1);
  EXPECT_NEAR(judge(bound(Figure::mean, Comparison::less, 1), s).measured, 11.8, 1e-9);
  EXPECT_NEAR(judge(bound(Figure::min, Comparison::less, 1), s).measured, 10, 1e-9);
  EXPECT_NEAR(judge(bound(Figure::max, Comparison::less, 1), s).measured, 100, 1e-9);
  EXPECT_DOUBLE_EQ(judge(bound(Figure::rps, Comparison::greater, 1), s).measured, 50);
  EXPECT_DOUBLE_EQ(judge(bound(Figure::error_share, Comparison::less, 1), s).measured, 0.02);
  EXPECT_DOUBLE_EQ(judge(bound(Figure::error_count, Comparison::less, 1), s).measured, 2);
  EXPECT_EQ(judge(bound(Figure::rps, Comparison::greater, 1), s).unit, "requests/s");
}

TEST(Threshold, ComparesStrictlyOrNot) {
  const auto s = threshold_run();
  EXPECT_FALSE(judge(bound(Figure::error_count, Comparison::less, 2), s).passed);
  EXPECT_TRUE(judge(bound(Figure::error_count, Comparison::less_equal, 2), s).passed);
  EXPECT_FALSE(judge(bound(Figure::rps, Comparison::greater, 50), s).passed);
  EXPECT_TRUE(judge(bound(Figure::rps, Comparison::greater_equal, 50), s).passed);
  EXPECT_TRUE(judge(bound(Figure::error_share, Comparison::less, 0.025), s).passed);
}

TEST(Threshold, ReadsAStepAndFailsOnOnePastTheFlow) {
  const auto s = threshold_run();
  auto first = bound(Figure::max, Comparison::less, 50);
  first.step = 0;
  EXPECT_TRUE(judge(first, s).passed);
  auto second = first;
  second.step = 1;
  EXPECT_FALSE(judge(second, s).passed);
  EXPECT_DOUBLE_EQ(judge(second, s).measured, 100);
  second.step = 2;
  EXPECT_FALSE(judge(second, s).passed);
}

TEST(Threshold, AnAbandonedRequestIsAnErrorOfTheRun) {
  auto s = threshold_run();
  s.abandoned = 2;
  EXPECT_DOUBLE_EQ(judge(bound(Figure::error_count, Comparison::less, 1), s).measured, 4);
  EXPECT_NEAR(judge(bound(Figure::error_share, Comparison::less, 1), s).measured, 4 / 102.0, 1e-12);
}

TEST(Threshold, ALatencyWithoutAResponseFails) {
  Summary empty;
  EXPECT_FALSE(judge(bound(Figure::percentile, Comparison::less, 1000), empty).passed);
  EXPECT_TRUE(judge(bound(Figure::error_count, Comparison::less, 1), empty).passed);
}

TEST(Threshold, OnlyGrowingFiguresPastAnUpperBoundCannotPass) {
  const auto s = threshold_run();
  EXPECT_TRUE(cannot_pass(bound(Figure::error_count, Comparison::less, 2), s));
  EXPECT_FALSE(cannot_pass(bound(Figure::error_count, Comparison::less, 3), s));
  EXPECT_TRUE(cannot_pass(bound(Figure::max, Comparison::less_equal, 99), s));
  // A percentile, a share or a rate may still come back; a lower bound may still be reached.
  EXPECT_FALSE(cannot_pass(bound(Figure::percentile, Comparison::less, 1), s));
  EXPECT_FALSE(cannot_pass(bound(Figure::error_share, Comparison::less, 0.001), s));
  EXPECT_FALSE(cannot_pass(bound(Figure::error_count, Comparison::greater, 5), s));
}

}  // namespace
}  // namespace stampede::statistics
