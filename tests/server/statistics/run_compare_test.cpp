// compare_runs judges each bound as a rise (latency, errors) or a drop (rps) from the baseline.
#include "server/statistics/run_compare.hpp"

#include <gtest/gtest.h>

namespace stampede::statistics {
namespace {

using namespace std::chrono_literals;

Summary compared_run(int requests, std::chrono::nanoseconds latency, int failures = 0) {
  Summary summary;
  for (int i = 0; i < requests; ++i) {
    model::Result r;
    r.status = 200;
    r.latency = latency;
    summary.total.add(r);
  }
  for (int i = 0; i < failures; ++i) {
    model::Result r;
    r.error = model::ErrorKind::timeout;
    summary.total.add(r);
  }
  summary.elapsed = 1s;
  return summary;
}

const CompareRow& row(const RunComparison& comparison, const std::string& figure) {
  for (const auto& r : comparison.rows) {
    if (r.figure == figure) return r;
  }
  throw std::out_of_range(figure);
}

TEST(CompareRuns, ARiseWithinItsBoundPasses) {
  CompareLimits limits;
  limits.p99_regress = 10;
  const auto comparison =
      compare_runs(compared_run(100, 10ms), compared_run(100, 10'500us), limits);
  EXPECT_TRUE(comparison.passed());
  EXPECT_NEAR(*row(comparison, "p99").change, 5, 1);
}

TEST(CompareRuns, ARisePastItsBoundFails) {
  CompareLimits limits;
  limits.p99_regress = 10;
  const auto comparison = compare_runs(compared_run(100, 10ms), compared_run(100, 20ms), limits);
  EXPECT_FALSE(comparison.passed());
  EXPECT_FALSE(row(comparison, "p99").passed);
  EXPECT_TRUE(row(comparison, "p50").passed);  // no bound: shown, not judged
}

TEST(CompareRuns, RpsIsJudgedAsADrop) {
  CompareLimits limits;
  limits.rps_drop = 5;
  EXPECT_TRUE(compare_runs(compared_run(100, 1ms), compared_run(200, 1ms), limits).passed());
  EXPECT_FALSE(compare_runs(compared_run(100, 1ms), compared_run(90, 1ms), limits).passed());
}

TEST(CompareRuns, ErrorsRiseInPercentagePoints) {
  CompareLimits limits;
  limits.errors_rise = 1;
  const auto comparison = compare_runs(compared_run(100, 1ms), compared_run(98, 1ms, 2), limits);
  EXPECT_DOUBLE_EQ(*row(comparison, "errors").change, 2.0);
  EXPECT_FALSE(comparison.passed());
}

TEST(CompareRuns, FromAZeroBaselineAnyRiseBreaksTheBound) {
  CompareLimits limits;
  limits.p99_regress = 10;
  const auto comparison = compare_runs(compared_run(0, 1ms), compared_run(10, 1ms), limits);
  EXPECT_FALSE(row(comparison, "p99").change.has_value());
  EXPECT_FALSE(comparison.passed());
}

}  // namespace
}  // namespace stampede::statistics
