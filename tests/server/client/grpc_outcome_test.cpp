// settle_grpc_call(): a finished gRPC exchange's status, from its trailers, HTTP status and body.
#include "server/client/grpc_outcome.hpp"

#include <gtest/gtest.h>

#include <string>

#include "grpc/framing.hpp"

namespace stampede::client {
namespace {

model::Response answered(int http_status, std::string grpc_status, std::string body) {
  model::Response response;
  response.status = http_status;
  response.grpc_status_field = std::move(grpc_status);
  response.body = std::move(body);
  return response;
}

TEST(GrpcOutcome, TheTrailersStatusIsTheCallsStatus) {
  auto ok = answered(200, "0", grpc::frame("hi"));
  settle_grpc_call(ok, false, 1024);
  EXPECT_EQ(ok.grpc_status, 0);
  auto failed = answered(200, "14", "");
  failed.grpc_message = "down%20now";
  settle_grpc_call(failed, false, 1024);
  EXPECT_EQ(failed.grpc_status, 14);
  EXPECT_EQ(failed.grpc_message, "down now");  // decoded
}

TEST(GrpcOutcome, WithoutGrpcStatusTheHttpStatusDecides) {
  auto missing = answered(200, "", grpc::frame("hi"));
  settle_grpc_call(missing, false, 1024);
  EXPECT_EQ(missing.grpc_status, 2);  // UNKNOWN: a true OK carries grpc-status
  auto unavailable = answered(503, "", "");
  settle_grpc_call(unavailable, false, 1024);
  EXPECT_EQ(unavailable.grpc_status, 14);  // UNAVAILABLE, by gRPC's table
}

TEST(GrpcOutcome, AnOkUnaryCallMustAnswerOneWholeMessage) {
  auto none = answered(200, "0", "");
  settle_grpc_call(none, false, 1024);
  EXPECT_EQ(none.grpc_status, 13);  // INTERNAL
  auto two = answered(200, "0", grpc::frame("a") + grpc::frame("b"));
  settle_grpc_call(two, false, 1024);
  EXPECT_EQ(two.grpc_status, 13);
  auto streamed = answered(200, "0", grpc::frame("a") + grpc::frame("b"));
  settle_grpc_call(streamed, true, 1024);  // a server stream answers any number
  EXPECT_EQ(streamed.grpc_status, 0);
  auto cut = answered(200, "0", grpc::frame("hello").substr(0, 7));
  settle_grpc_call(cut, true, 1024);
  EXPECT_EQ(cut.grpc_status, 13);  // a message cut off
}

TEST(GrpcOutcome, AMessageOverTheLimitIsOursNotTheServersStatus) {
  auto big = answered(200, "0", grpc::frame(std::string(1025, 'x')));
  const auto why = settle_grpc_call(big, false, 1024);
  EXPECT_EQ(big.error, model::ErrorKind::too_big);
  EXPECT_EQ(big.grpc_status, -1);  // no status: none counted under gRPC's codes
  EXPECT_EQ(why,
            "a gRPC answer's message of 1025 bytes, more than the limit of 1024 "
            "(--max-message 1024)");
  auto fits = answered(200, "0", grpc::frame(std::string(1024, 'x')));
  EXPECT_EQ(settle_grpc_call(fits, false, 1024), "");
  EXPECT_EQ(fits.error, model::ErrorKind::none);
  EXPECT_EQ(fits.grpc_status, 0);
}

}  // namespace
}  // namespace stampede::client
