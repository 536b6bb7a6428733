// ThinkTime: pauses within their span, the same for the same seed, uniform enough to trust.
#include "server/think_time.hpp"

#include <gtest/gtest.h>

#include <set>

namespace stampede::server {
namespace {

using namespace std::chrono_literals;

TEST(ThinkTime, NoneWithoutASpan) {
  EXPECT_TRUE(ThinkTime(0ms, 0ms, 7).none());
  EXPECT_FALSE(ThinkTime(0ms, 1ms, 7).none());
  EXPECT_FALSE(ThinkTime(500ms, 500ms, 7).none());
}

TEST(ThinkTime, AFixedPauseIsAlwaysItself) {
  ThinkTime think(500ms, 500ms, 3);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(think.next(), 500ms);
}

TEST(ThinkTime, PausesStayInTheirSpanAndSpreadEvenly) {
  ThinkTime think(200ms, 1000ms, 11);
  const int draws = 100'000;
  std::array<int, 8> buckets{};  // 100 ms each
  for (int i = 0; i < draws; ++i) {
    const auto pause = think.next();
    ASSERT_GE(pause, 200ms);
    ASSERT_LE(pause, 1000ms);
    ++buckets.at(static_cast<std::size_t>(std::min<std::int64_t>((pause - 200ms) / 100ms, 7)));
  }
  for (const int count : buckets) {  // 12,500 each if uniform; 4 sigma is about 420
    EXPECT_NEAR(count, draws / 8, 600);
  }
}

TEST(ThinkTime, TheSameSeedPausesAlikeAndOthersNot) {
  ThinkTime a(0ms, 1000ms, 42);
  ThinkTime b(0ms, 1000ms, 42);
  ThinkTime c(0ms, 1000ms, 43);
  std::set<std::int64_t> seen;
  bool differs = false;
  for (int i = 0; i < 10; ++i) {
    const auto pause = a.next();
    EXPECT_EQ(pause, b.next());
    differs = differs || pause != c.next();
    seen.insert(pause.count());
  }
  EXPECT_TRUE(differs);
  EXPECT_EQ(seen.size(), 10U);
}

}  // namespace
}  // namespace stampede::server
