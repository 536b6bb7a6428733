// Response::clear(): a reused Response carries nothing of the previous exchange into the next.
#include "model/response.hpp"

#include <gtest/gtest.h>

namespace stampede::model {
namespace {

TEST(Response, ClearForgetsEveryHeaderKept) {
  Response response;
  response.status = 200;
  response.server = "nginx";
  response.location = "/next";
  response.content_encoding = "gzip";
  response.body = "ok";
  response.sent_seq = "0_1";
  response.websocket = true;
  response.clear();
  // A timeout after this must not be counted as another response from nginx.
  EXPECT_EQ(response.server, "");
  EXPECT_EQ(response.location, "");
  EXPECT_EQ(response.content_encoding, "");
  EXPECT_EQ(response.body, "");
  EXPECT_EQ(response.status, 0);
  // Nor may an HTTP exchange after it be taken for a WebSocket reply, or checked for a seq.
  EXPECT_EQ(response.sent_seq, "");
  EXPECT_FALSE(response.websocket);
}

}  // namespace
}  // namespace stampede::model
