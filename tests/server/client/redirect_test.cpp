// -redirect tests: reference resolution, method rewriting and the same-origin rule.
#include "server/client/redirect.hpp"

#include <gtest/gtest.h>

namespace stampede::client {
namespace {

model::Request origin() {
  model::Request r;
  r.origin.host = "127.0.0.1";
  r.origin.port = 8080;
  r.target = "/a/b?q=1";
  return r;
}

TEST(Redirect, StatusesThatRedirect) {
  for (int status : {301, 302, 303, 307, 308}) EXPECT_TRUE(is_redirect(status)) << status;
  for (int status : {200, 300, 304, 305, 400}) EXPECT_FALSE(is_redirect(status)) << status;
}

TEST(Redirect, ResolvesRelativeAndAbsoluteSameOriginLocations) {
  EXPECT_EQ(follow_redirect(origin(), "/a/b?q=1", 302, "c")->target, "/a/c");
  EXPECT_EQ(follow_redirect(origin(), "/a/b?q=1", 302, "/x?y=2")->target, "/x?y=2");
  EXPECT_EQ(follow_redirect(origin(), "/a/b", 301, "http://127.0.0.1:8080/z")->target, "/z");
  const auto next = follow_redirect(origin(), "/a/b", 302, "/z");
  EXPECT_NE(std::get<Http1Wire>(next->prepared.wire).bytes.find("GET /z HTTP/1.1\r\n"),
            std::string::npos);
}

TEST(Redirect, OtherOriginsAndBadLocationsAreNotFollowed) {
  EXPECT_FALSE(follow_redirect(origin(), "/", 302, "http://127.0.0.1:9090/"));
  EXPECT_FALSE(follow_redirect(origin(), "/", 302, "https://127.0.0.1:8080/"));
  EXPECT_FALSE(follow_redirect(origin(), "/", 302, "http://localhost:8080/"));
  EXPECT_FALSE(follow_redirect(origin(), "/", 302, ""));
  EXPECT_FALSE(follow_redirect(origin(), "/", 302, "http://[bad"));
}

TEST(Redirect, SeeOtherBecomesGetAndTemporaryKeepsTheBody) {
  auto post = origin();
  post.method = "POST";
  post.body = "a=1";
  post.headers = {{"Content-Type", "text/plain"}, {"X-Keep", "1"}};
  const auto see_other =
      std::get<Http1Wire>(follow_redirect(post, "/a/b", 303, "/done")->prepared.wire).bytes;
  EXPECT_TRUE(see_other.starts_with("GET /done HTTP/1.1\r\n"));
  EXPECT_EQ(see_other.find("a=1"), std::string::npos);
  EXPECT_EQ(see_other.find("Content-Type"), std::string::npos);
  EXPECT_NE(see_other.find("X-Keep: 1"), std::string::npos);
  const auto temporary =
      std::get<Http1Wire>(follow_redirect(post, "/a/b", 307, "/again")->prepared.wire).bytes;
  EXPECT_TRUE(temporary.starts_with("POST /again HTTP/1.1\r\n"));
  EXPECT_TRUE(temporary.ends_with("a=1"));
}

}  // namespace
}  // namespace stampede::client
