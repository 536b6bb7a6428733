// The gRPC verifier: the call's gRPC status against -code, and the reason when it is not.
#include "verify/grpc_status.hpp"

#include <gtest/gtest.h>

namespace stampede::verify {
namespace {

TEST(GrpcStatusVerifier, AcceptsOnlyTheExpectedCodeAndSaysWhyNot) {
  model::Response response;
  response.status = 200;
  response.grpc_status = 0;
  EXPECT_TRUE(GrpcStatus(0).accept(response));
  EXPECT_FALSE(GrpcStatus(14).accept(response));
  response.grpc_status = 14;
  response.grpc_message = "down";
  EXPECT_TRUE(GrpcStatus(14).accept(response));
  EXPECT_EQ(GrpcStatus(0).why_rejected(response), "gRPC status UNAVAILABLE (down), not -code OK");
  response.grpc_status = -1;  // no gRPC answer at all
  EXPECT_FALSE(GrpcStatus(0).accept(response));
  EXPECT_FALSE(GrpcStatus(0).needs_body());
}

}  // namespace
}  // namespace stampede::verify
