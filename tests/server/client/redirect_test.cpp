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
  EXPECT_EQ(follow_redirect(origin(), "/a/b", 302, "/z")->method, "GET");
}

TEST(Redirect, AHopOnlyWhenAskedForAndTheStatusRedirects) {
  auto from = origin();
  model::Response response;
  response.status = 302;
  response.location = "/next";
  EXPECT_FALSE(redirect_hop(from, from.target, response));  // not asked for
  from.follow_redirects = true;
  EXPECT_EQ(redirect_hop(from, from.target, response)->target, "/next");
  response.status = 200;
  EXPECT_FALSE(redirect_hop(from, from.target, response));
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
  const auto see_other = follow_redirect(post, "/a/b", 303, "/done");
  EXPECT_EQ(see_other->method, "GET");
  EXPECT_EQ(see_other->target, "/done");
  EXPECT_EQ(see_other->body, "");
  const std::vector<std::pair<std::string, std::string>> kept{{"X-Keep", "1"}};
  EXPECT_EQ(see_other->headers, kept);  // no Content-Type without a body
  const auto temporary = follow_redirect(post, "/a/b", 307, "/again");
  EXPECT_EQ(temporary->method, "POST");
  EXPECT_EQ(temporary->body, "a=1");
  EXPECT_EQ(temporary->headers, post.headers);
}

}  // namespace
}  // namespace stampede::client
