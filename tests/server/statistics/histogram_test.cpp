// Histogram: percentiles against an exact sort, exact extremes and moments, clamping, merge.
#include "server/statistics/histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace stampede::statistics {
namespace {

// 100k lognormal latencies around 1 ms with a long tail, as a loaded server produces.
std::vector<std::uint64_t> lognormal_values(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(1e6), 1.0);
  std::vector<std::uint64_t> values(n);
  for (auto& v : values) {
    v = static_cast<std::uint64_t>(dist(rng));
  }
  return values;
}

// Nearest-rank percentile of sorted values: the smallest v with at least q% of values <= v.
// q comes in hundredths of a percent so the rank is exact integer arithmetic.
std::uint64_t exact_percentile(const std::vector<std::uint64_t>& sorted, std::uint64_t q_bp) {
  const std::uint64_t rank = (q_bp * sorted.size() + 9999) / 10000;
  return sorted[std::max<std::uint64_t>(rank, 1) - 1];
}

TEST(Histogram, PercentilesWithinOnePercentOfExactSort) {
  auto values = lognormal_values(100'000, 42);
  Histogram h;
  for (auto v : values) {
    h.record(v);
  }
  std::sort(values.begin(), values.end());
  ASSERT_EQ(h.count(), values.size());
  for (std::uint64_t q_bp : {1U, 100U, 2500U, 5000U, 9000U, 9900U, 9990U, 9999U}) {
    const double q = static_cast<double>(q_bp) / 100;
    const auto exact = static_cast<double>(exact_percentile(values, q_bp));
    const auto got = static_cast<double>(h.percentile(q));
    EXPECT_GE(got, exact) << "q=" << q;  // the top of the exact value's bucket
    EXPECT_LT((got - exact) / exact, 0.01) << "q=" << q;
  }
  EXPECT_EQ(h.percentile(0), values.front());
  EXPECT_EQ(h.percentile(100), values.back());
  EXPECT_EQ(h.min(), values.front());
  EXPECT_EQ(h.max(), values.back());
}

TEST(Histogram, SmallValuesAreExact) {
  Histogram h;
  for (std::uint64_t v = 0; v < 256; ++v) {
    h.record(v);
  }
  EXPECT_EQ(h.percentile(50), 127U);  // rank 128 of 0..255
  EXPECT_EQ(h.percentile(0.5), 1U);   // rank ceil(1.28) = 2
  EXPECT_EQ(h.percentile(100), 255U);
}

TEST(Histogram, PercentileRankIsNotPushedUpByRounding) {
  Histogram h;
  for (std::uint64_t v = 1; v <= 1000; ++v) {
    h.record(v);
  }
  // 99.9% of 1000 is rank 999 (value 999, top of slot 996..999) even though 99.9 / 100 * 1000
  // is not exactly 999 in binary; rank 1000 would give 1000.
  EXPECT_EQ(h.percentile(99.9), 999U);
  EXPECT_EQ(h.percentile(99.95), 1000U);
  EXPECT_EQ(h.percentile(50), 501U);  // rank 500: 500 shares a 2 ns slot with 501
}

TEST(Histogram, EmptyIsAllZero) {
  Histogram h;
  EXPECT_EQ(h.count(), 0U);
  EXPECT_EQ(h.min(), 0U);
  EXPECT_EQ(h.max(), 0U);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.stdev(), 0.0);
  EXPECT_EQ(h.percentile(0), 0U);
  EXPECT_EQ(h.percentile(50), 0U);
  EXPECT_EQ(h.percentile(100), 0U);
}

TEST(Histogram, SingleValueIsEveryPercentile) {
  Histogram h;
  h.record(123'456'789);
  for (double q : {0.0, 1.0, 50.0, 99.9, 100.0}) {
    EXPECT_EQ(h.percentile(q), 123'456'789U) << "q=" << q;
  }
  EXPECT_EQ(h.stdev(), 0.0);
}

TEST(Histogram, HugeValuesClampToTheTop) {
  Histogram h;
  h.record(UINT64_MAX);
  h.record(Histogram::max_value + 1);
  h.record(1000);
  EXPECT_EQ(h.count(), 3U);
  EXPECT_EQ(h.max(), Histogram::max_value);
  EXPECT_EQ(h.percentile(100), Histogram::max_value);
  EXPECT_EQ(h.percentile(50), Histogram::max_value);
  EXPECT_EQ(h.percentile(0), 1000U);
  EXPECT_DOUBLE_EQ(h.mean(), (2.0 * Histogram::max_value + 1000) / 3);
}

TEST(Histogram, MeanAndStdevAreExact) {
  const auto values = lognormal_values(100'000, 7);
  Histogram h;
  long double sum = 0;
  for (auto v : values) {
    h.record(v);
    sum += v;
  }
  const long double mean = sum / values.size();
  long double squares = 0;
  for (auto v : values) {
    squares += (v - mean) * (v - mean);
  }
  const double stdev = std::sqrt(static_cast<double>(squares / values.size()));
  EXPECT_NEAR(h.mean(), static_cast<double>(mean), static_cast<double>(mean) * 1e-12);
  EXPECT_NEAR(h.stdev(), stdev, stdev * 1e-9);
}

TEST(Histogram, StdevHasNoCancellationAtLargeMeans) {
  Histogram h;
  h.record(1'000'000'000'000);  // 1000 s, spread of 1 ns
  h.record(1'000'000'000'002);
  EXPECT_DOUBLE_EQ(h.stdev(), 1.0);
  EXPECT_DOUBLE_EQ(h.mean(), 1'000'000'000'001.0);
}

TEST(Histogram, MergeEqualsRecordingEverythingInOne) {
  const auto values = lognormal_values(10'000, 3);
  Histogram all, left, right;
  for (std::size_t i = 0; i < values.size(); ++i) {
    all.record(values[i]);
    (i % 3 == 0 ? left : right).record(values[i]);
  }
  left.merge(right);
  EXPECT_EQ(left, all);
  EXPECT_EQ(left.percentile(99), all.percentile(99));
}

TEST(Histogram, MergeWithEmptyChangesNothing) {
  Histogram h, empty;
  h.record(5);
  h.record(5'000'000);
  const Histogram before = h;
  h.merge(empty);
  EXPECT_EQ(h, before);
  empty.merge(before);
  EXPECT_EQ(empty, before);
  EXPECT_EQ(empty.min(), 5U);
}

TEST(Histogram, ResetForgetsButKeepsMemory) {
  Histogram h;
  h.record(77);
  h.record(1'000'000);
  const auto bytes = h.memory_bytes();
  h.reset();
  EXPECT_EQ(h, Histogram{});  // octaves at zero equal octaves never allocated
  EXPECT_EQ(Histogram{}, h);
  EXPECT_EQ(h.memory_bytes(), bytes);
  h.record(9);
  EXPECT_EQ(h.min(), 9U);
  EXPECT_EQ(h.max(), 9U);
  EXPECT_EQ(h.memory_bytes(), bytes);  // 9 falls in an octave already there
}

TEST(Histogram, MemoryGrowsOnlyWithTheOctavesUsed) {
  Histogram h;
  EXPECT_LT(h.memory_bytes(), 256U);  // no counts until a value arrives
  for (std::uint64_t v = 1'100'000; v < 1'900'000; v += 1000) {
    h.record(v);  // 1.1 to 1.9 ms: one octave, [2^20, 2^21) ns
  }
  EXPECT_LT(h.memory_bytes(), 256U + 128 * 8);
  Histogram copy = h;
  copy.merge(h);
  EXPECT_LT(copy.memory_bytes(), 256U + 128 * 8);
  EXPECT_EQ(copy.count(), 2 * h.count());
}

TEST(Histogram, EqualityIgnoresWhereOctavesLive) {
  Histogram a, b;
  a.record(100);        // octave 0 first
  a.record(5'000'000);  // then a high one
  b.record(5'000'000);
  b.record(100);
  EXPECT_EQ(a, b);
  b.record(100);
  EXPECT_NE(a, b);
  a.record(101);  // same count, min, max; sums differ
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace stampede::statistics
