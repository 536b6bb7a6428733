// FieldsTemplate tests: a request's own target, header values and body rendered, each made safe
// for its place, the rest of the request kept.
#include "server/request_fields.hpp"

#include <gtest/gtest.h>

namespace stampede::server {
namespace {

TEST(FieldsTemplate, ARequestWithoutVariablesHasNone) {
  model::Request r;
  r.target = "/plain?x=$y";
  r.headers = {{"X-A", "b"}};
  r.body = "c";
  EXPECT_FALSE(FieldsTemplate::of(r, {}));
}

TEST(FieldsTemplate, EachFieldRenderedForItsPlace) {
  model::Request r;
  r.method = "POST";
  r.target = "/u/${token}?s=${seq}";
  r.headers = {{"Authorization", "Bearer ${token}"}, {"X-Plain", "p"}};
  r.body = "t=${token}";
  r.follow_redirects = true;
  const std::vector<std::string> captured{"token"};
  const auto fields = FieldsTemplate::of(r, {captured, {}});
  ASSERT_TRUE(fields);
  session::UserValues values(3);
  values.round = 7;
  values.captured = {"a b\r\nX: y"};
  model::Request out;
  fields->render(r, values, out);
  EXPECT_EQ(out.target, "/u/a%20b%0D%0AX%3A%20y?s=7");
  const std::vector<std::pair<std::string, std::string>> headers{
      {"Authorization", "Bearer a b  X: y"}, {"X-Plain", "p"}};
  EXPECT_EQ(out.headers, headers);
  EXPECT_EQ(out.body, "t=a b\r\nX: y");
  EXPECT_EQ(out.method, "POST");
  EXPECT_TRUE(out.follow_redirects);
}

}  // namespace
}  // namespace stampede::server
