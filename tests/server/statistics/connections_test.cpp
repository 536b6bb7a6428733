// ConnectionCounts: what became of long-lived connections, merged in any order to the same totals.
#include "server/statistics/connections.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>

namespace stampede::statistics {
namespace {

using model::ErrorKind;

// A stretch of a run: connections opened, some ended, by the server or lost, some opens failed.
ConnectionCounts random_counts(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> kind(1, static_cast<int>(model::error_kind_count) - 1);
  std::uniform_int_distribution<int> coin(0, 3);
  std::uniform_int_distribution<std::int64_t> at_ms(0, 60'000);
  ConnectionCounts counts;
  for (int i = 0; i < 500; ++i) {
    if (coin(rng) == 0) {
      counts.fail(static_cast<ErrorKind>(kind(rng)));
      continue;
    }
    counts.open(std::chrono::milliseconds(at_ms(rng)));
    if (coin(rng) == 0) {
      ++counts.ended;
      counts.closed_by_server += coin(rng) == 0 ? 1 : 0;
    }
  }
  return counts;
}

ConnectionCounts merged_connections(ConnectionCounts left, const ConnectionCounts& right) {
  left.merge(right);
  return left;
}

TEST(ConnectionCounts, MergeIsAssociativeAndCommutative) {
  const auto a = random_counts(1);
  const auto b = random_counts(2);
  const auto c = random_counts(3);
  const auto left = merged_connections(merged_connections(a, b), c);
  EXPECT_EQ(left, merged_connections(a, merged_connections(b, c)));
  EXPECT_EQ(merged_connections(a, b), merged_connections(b, a));
  EXPECT_EQ(merged_connections(merged_connections(c, a), b), left);
  EXPECT_EQ(merged_connections(a, ConnectionCounts{}), a);
  // Field by field, so a merge that dropped one would show here even if == missed it.
  EXPECT_EQ(left.opened, a.opened + b.opened + c.opened);
  EXPECT_EQ(left.last_opened, std::max({a.last_opened, b.last_opened, c.last_opened}));
  EXPECT_EQ(left.ended, a.ended + b.ended + c.ended);
  EXPECT_EQ(left.closed_by_server, a.closed_by_server + b.closed_by_server + c.closed_by_server);
  EXPECT_EQ(left.failures(), a.failures() + b.failures() + c.failures());
  EXPECT_GT(left.failures(), 0U);
  EXPECT_GT(left.closed_by_server, 0U);
}

TEST(ConnectionCounts, TheLastOpeningIsTheLatestWhateverTheOrder) {
  ConnectionCounts counts;
  counts.open(std::chrono::milliseconds(1'500));
  counts.open(std::chrono::milliseconds(300));
  EXPECT_EQ(counts.opened, 2U);
  EXPECT_EQ(counts.last_opened, std::chrono::milliseconds(1'500));
}

TEST(ConnectionCounts, FailuresAreCountedByKindAndInAll) {
  ConnectionCounts counts;
  counts.fail(ErrorKind::handshake);
  counts.fail(ErrorKind::handshake);
  counts.fail(ErrorKind::timeout);
  EXPECT_EQ(counts.failed[static_cast<std::size_t>(ErrorKind::handshake)], 2U);
  EXPECT_EQ(counts.failed[static_cast<std::size_t>(ErrorKind::timeout)], 1U);
  EXPECT_EQ(counts.failures(), 3U);
  EXPECT_EQ(counts.opened, 0U);  // a failed open opened nothing
}

}  // namespace
}  // namespace stampede::statistics
