// InFlightLimit and InFlightSlot: exactly K admitted, places given back once, threads sharing one.
#include "target_server/admission.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

namespace stampede::target_server {
namespace {

TEST(TargetInFlightLimit, AdmitsExactlyTheMostThenOneMorePerLeave) {
  InFlightLimit limit(3);
  EXPECT_EQ(limit.most(), 3U);
  EXPECT_TRUE(limit.try_enter());
  EXPECT_TRUE(limit.try_enter());
  EXPECT_TRUE(limit.try_enter());
  EXPECT_EQ(limit.in_flight(), 3U);
  EXPECT_FALSE(limit.try_enter());
  EXPECT_FALSE(limit.try_enter());
  EXPECT_EQ(limit.in_flight(), 3U);  // a refusal counts nothing
  limit.leave();
  EXPECT_EQ(limit.in_flight(), 2U);
  EXPECT_TRUE(limit.try_enter());
  EXPECT_FALSE(limit.try_enter());
  for (int i = 0; i < 3; ++i) limit.leave();
  EXPECT_EQ(limit.in_flight(), 0U);
}

TEST(TargetInFlightLimit, ZeroIsNoLimitAndCountsNothing) {
  InFlightLimit limit(0);
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(limit.try_enter());
  EXPECT_EQ(limit.in_flight(), 0U);
  limit.leave();  // would wrap below zero if it were counted
  EXPECT_EQ(limit.in_flight(), 0U);
}

TEST(TargetInFlightLimit, ThreadsSharingItNeverHoldMoreThanTheMost) {
  constexpr std::uint32_t most = 4;
  constexpr int threads = 8;
  constexpr int rounds = 2'000;
  InFlightLimit limit(most);
  std::atomic<std::uint32_t> inside{0};  // counted by the holders themselves, apart from limit
  std::atomic<std::uint32_t> peak{0};
  std::atomic<std::uint64_t> admitted{0};
  {
    std::vector<std::jthread> workers;
    workers.reserve(threads);
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&] {
        for (int i = 0; i < rounds; ++i) {
          if (!limit.try_enter()) continue;
          const auto now = inside.fetch_add(1) + 1;
          for (auto seen = peak.load(); now > seen && !peak.compare_exchange_weak(seen, now);) {
          }
          admitted.fetch_add(1);
          // Held a while, so that the threads pile up at the limit even on two cores: a limit
          // letting too many in would show here.
          std::this_thread::sleep_for(std::chrono::microseconds(20));
          inside.fetch_sub(1);
          limit.leave();
        }
      });
    }
  }
  EXPECT_LE(peak.load(), most);
  EXPECT_GE(peak.load(), 1U);
  EXPECT_GT(admitted.load(), 0U);
  EXPECT_LT(admitted.load(), std::uint64_t{threads} * rounds);  // the limit did refuse some
  EXPECT_EQ(limit.in_flight(), 0U);                             // every place given back, none lost
}

TEST(TargetInFlightSlot, HoldsItsPlaceUntilReleasedOrDestroyed) {
  InFlightLimit limit(2);
  {
    InFlightSlot first(&limit);
    EXPECT_TRUE(first.admitted());
    EXPECT_EQ(limit.in_flight(), 1U);
    InFlightSlot second(&limit);
    InFlightSlot third(&limit);
    EXPECT_TRUE(second.admitted());
    EXPECT_FALSE(third.admitted());
    EXPECT_EQ(limit.in_flight(), 2U);
    second.release();
    EXPECT_EQ(limit.in_flight(), 1U);
    second.release();  // once only
    EXPECT_EQ(limit.in_flight(), 1U);
    EXPECT_TRUE(second.admitted());  // it was: the answer it got stands
  }                                  // first goes now; third, refused, gives back nothing
  EXPECT_EQ(limit.in_flight(), 0U);
}

TEST(TargetInFlightSlot, MovesItsPlaceAndGivesBackWhatItHeldWhenMovedOver) {
  InFlightLimit limit(2);
  InFlightSlot moved;
  {
    InFlightSlot first(&limit);
    moved = InFlightSlot(std::move(first));
  }  // first, moved from, holds nothing to give back
  EXPECT_TRUE(moved.admitted());
  EXPECT_EQ(limit.in_flight(), 1U);
  InFlightSlot b(&limit);
  EXPECT_EQ(limit.in_flight(), 2U);
  moved = std::move(b);  // moved's place is given back, b's is kept
  EXPECT_EQ(limit.in_flight(), 1U);
  moved = InFlightSlot();  // as a closed HTTP/2 stream's state is reset
  EXPECT_EQ(limit.in_flight(), 0U);
  EXPECT_FALSE(moved.admitted());
}

TEST(TargetInFlightSlot, WithoutALimitIsAdmittedAndCountsNothing) {
  const InFlightSlot none(nullptr);
  EXPECT_TRUE(none.admitted());
  InFlightLimit unlimited(0);
  const InFlightSlot slot(&unlimited);
  EXPECT_TRUE(slot.admitted());
  EXPECT_EQ(unlimited.in_flight(), 0U);
  EXPECT_FALSE(InFlightSlot().admitted());
}

}  // namespace
}  // namespace stampede::target_server
