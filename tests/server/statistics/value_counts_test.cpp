// ValueCounts: the most frequent value, ties to the smaller, bounded, the same in any merge order.
#include "server/statistics/value_counts.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace stampede::statistics {
namespace {

ValueCounts<std::uint64_t> counts_of(std::uint64_t from, std::uint64_t to) {
  ValueCounts<std::uint64_t> counts;
  for (std::uint64_t v = from; v <= to; ++v) counts.add(v, v);
  return counts;
}

ValueCounts<std::uint64_t> merged_counts(ValueCounts<std::uint64_t> left,
                                         const ValueCounts<std::uint64_t>& right) {
  left.merge(right);
  return left;
}

TEST(ValueCounts, MostFrequentThenSmallest) {
  ValueCounts<std::string> servers;
  EXPECT_EQ(servers.most_frequent(), "");
  servers.add(std::string_view("nginx"));
  servers.add(std::string_view("Apache"));
  EXPECT_EQ(servers.most_frequent(), "Apache");
  servers.add(std::string_view("nginx"), 2);
  EXPECT_EQ(servers.most_frequent(), "nginx");
  servers.add(std::string_view("zero"), 0);  // a zero count adds no value
  EXPECT_EQ(servers.entries().size(), 2U);
}

TEST(ValueCounts, KeepsTheSmallestValuesWithTheirWholeCounts) {
  ValueCounts<std::uint64_t> counts;
  for (std::uint64_t v = 20; v >= 1; --v) counts.add(v);
  counts.add(std::uint64_t{3}, 5);
  counts.add(std::uint64_t{30}, 100);  // beyond the kept values: dropped
  ASSERT_EQ(counts.entries().size(), ValueCounts<std::uint64_t>::limit);
  EXPECT_EQ(counts.entries().front(), (std::pair<std::uint64_t, std::uint64_t>{1, 1}));
  EXPECT_EQ(counts.entries().back().first, ValueCounts<std::uint64_t>::limit);
  EXPECT_EQ(counts.most_frequent(), 3U);
}

TEST(ValueCounts, ARepeatedValueCountsWhereverItMoved) {
  // The value last added is looked at first: each add below follows one that moved it (a
  // smaller value inserted before it, the largest evicted), and every count still lands.
  ValueCounts<std::uint64_t> counts;
  counts.add(std::uint64_t{50});
  counts.add(std::uint64_t{40});  // 50 moves from index 0 to 1
  counts.add(std::uint64_t{50});
  for (std::uint64_t v = 1; v <= ValueCounts<std::uint64_t>::limit; ++v) counts.add(v);  // evicts
  counts.add(std::uint64_t{2}, 3);
  counts.add(std::uint64_t{2});
  ValueCounts<std::uint64_t> expected;
  for (std::uint64_t v = 1; v <= ValueCounts<std::uint64_t>::limit; ++v)
    expected.add(v, v == 2 ? 5 : 1);
  EXPECT_EQ(counts, expected);
  counts.clear();
  counts.add(std::uint64_t{7});
  EXPECT_EQ(counts.entries().size(), 1U);
  EXPECT_EQ(counts.most_frequent(), 7U);
}

TEST(ValueCounts, MergeIsAssociativeAndCommutativeBeyondTheLimit) {
  const auto a = counts_of(5, 12);
  const auto b = counts_of(1, 6);
  const auto c = counts_of(10, 30);
  EXPECT_EQ(merged_counts(a, b), merged_counts(b, a));
  EXPECT_EQ(merged_counts(merged_counts(a, b), c), merged_counts(a, merged_counts(b, c)));
  EXPECT_EQ(merged_counts(merged_counts(c, a), b), merged_counts(merged_counts(a, b), c));
  EXPECT_EQ(merged_counts(a, b).most_frequent(), 6U);  // 1..8 kept; 6 counts 6 + 6
}

}  // namespace
}  // namespace stampede::statistics
