// grpc-timeout values: the largest exact unit, at most 8 digits, rounded up when nothing is exact.
#include "grpc/timeout.hpp"

#include <gtest/gtest.h>

namespace stampede::grpc {
namespace {

using namespace std::chrono_literals;

TEST(GrpcTimeout, TheLargestExactUnitWins) {
  EXPECT_EQ(grpc_timeout(250ms), "250m");
  EXPECT_EQ(grpc_timeout(30s), "30S");
  EXPECT_EQ(grpc_timeout(1500ms), "1500m");
  EXPECT_EQ(grpc_timeout(2min), "2M");
  EXPECT_EQ(grpc_timeout(90s), "90S");
  EXPECT_EQ(grpc_timeout(1h), "1H");
  EXPECT_EQ(grpc_timeout(1us), "1u");
  EXPECT_EQ(grpc_timeout(1ns), "1n");
  EXPECT_EQ(grpc_timeout(1001us), "1001u");
}

TEST(GrpcTimeout, NeverMoreThanEightDigits) {
  EXPECT_EQ(grpc_timeout(99'999'999ns), "99999999n");
  EXPECT_EQ(grpc_timeout(100'000'000ns), "100m");
  // 123456789 ns has nothing exact within 8 digits: rounded up to the microsecond.
  EXPECT_EQ(grpc_timeout(123'456'789ns), "123457u");
  EXPECT_EQ(grpc_timeout(100'000'001ms), "100001S");
  EXPECT_EQ(grpc_timeout(std::chrono::nanoseconds::max()), "2562048H");
}

TEST(GrpcTimeout, AnExpiredTimeoutIsTheShortestThereIs) {
  EXPECT_EQ(grpc_timeout(0ns), "1n");
  EXPECT_EQ(grpc_timeout(-5s), "1n");
}

}  // namespace
}  // namespace stampede::grpc
