// --expect-* checks: statuses and ranges, JSON pointers (equal, exists, regex), body regex and
// size, and the verifier that names the first check a response failed.
#include "verify/expectations.hpp"
#include "tests/verify/responses.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace stampede::verify {
namespace {

TEST(ExpectStatus, CodesAndRanges) {
  const auto check = expect_status("200,204,300-399");
  EXPECT_TRUE(check->holds(response(204)));
  EXPECT_TRUE(check->holds(response(302)));
  EXPECT_FALSE(check->holds(response(201)));
  EXPECT_FALSE(check->holds(response(0)));
  EXPECT_EQ(check->name(), "--expect-status 200,204,300-399");
  EXPECT_EQ(check->why_not(response(500)), "status 500, not --expect-status 200,204,300-399");
  EXPECT_THROW(expect_status("200,abc"), std::invalid_argument);
  EXPECT_THROW(expect_status("600"), std::invalid_argument);
  EXPECT_THROW(expect_status("399-300"), std::invalid_argument);
  EXPECT_THROW(expect_status(""), std::invalid_argument);
}

TEST(ExpectJson, EqualsExistsAndMatches) {
  const std::string body = R"({"data":{"id":42,"name":"ok","tags":["a","b"]},"code":"200"})";
  EXPECT_TRUE(expect_json("/data/id=42")->holds(response(200, body)));
  EXPECT_FALSE(expect_json("/data/id=43")->holds(response(200, body)));
  EXPECT_TRUE(expect_json("/data/name=ok")->holds(response(200, body)));  // a string as text
  EXPECT_TRUE(expect_json("/data/name=\"ok\"")->holds(response(200, body)));
  EXPECT_TRUE(expect_json("/code=200")->holds(response(200, body)));  // "200" as text
  EXPECT_TRUE(expect_json("/data/tags/1=b")->holds(response(200, body)));
  EXPECT_TRUE(expect_json("/data/tags")->holds(response(200, body)));
  EXPECT_FALSE(expect_json("/data/missing")->holds(response(200, body)));
  EXPECT_TRUE(expect_json("/data/name~^o")->holds(response(200, body)));
  EXPECT_TRUE(expect_json("/data/id~^4[0-9]$")->holds(response(200, body)));
  EXPECT_FALSE(expect_json("/data/id")->holds(response(200, "not json")));
  EXPECT_EQ(expect_json("/data/id=43")->why_not(response(200, body)),
            "/data/id is 42 (--expect-json /data/id=43)");
  EXPECT_THROW(expect_json("data/id=1"), std::invalid_argument);  // no leading /
  EXPECT_THROW(expect_json("/a~("), std::invalid_argument);       // not a regex
  EXPECT_TRUE(expect_json("/a")->needs_body());
}

TEST(ExpectBody, RegexAndSize) {
  EXPECT_TRUE(expect_body("hello")->holds(response(200, "say hello stampede")));
  EXPECT_FALSE(expect_body("^hello")->holds(response(200, "say hello")));
  EXPECT_THROW(expect_body("(["), std::invalid_argument);
  EXPECT_TRUE(expect_size(5)->holds(response(200, "12345")));
  EXPECT_FALSE(expect_size(5)->holds(response(200, "1234")));
  EXPECT_EQ(expect_size(5)->why_not(response(200, "1234")),
            "the body is 4 bytes (--expect-size 5)");
}

TEST(ExpectHeader, KeptHeadersMatchedByNameWithoutCase) {
  const auto check = expect_header("Content-Type: ^application/json");
  EXPECT_EQ(check->header(), "content-type");
  auto r = response(200);
  r.wanted_headers = {"content-type"};
  r.keep_header("Content-TYPE", "application/json; charset=utf-8");
  r.keep_header("X-Other", "ignored");
  EXPECT_TRUE(check->holds(r));
  EXPECT_EQ(r.headers.size(), 1U);
  EXPECT_FALSE(expect_header("content-type: xml")->holds(r));
  EXPECT_TRUE(expect_header("content-type:")->holds(r));
  EXPECT_EQ(expect_header("ETag:")->why_not(r), "no etag header (--expect-header ETag:)");
  EXPECT_THROW(expect_header("Content Type: x"), std::invalid_argument);
  EXPECT_THROW(expect_header("Content-Type"), std::invalid_argument);
  EXPECT_THROW(expect_header("A: (["), std::invalid_argument);
}

TEST(Expectations, TheFirstCheckAResponseFailsIsItsReason) {
  std::vector<std::unique_ptr<Check>> checks;
  checks.push_back(expect_json("/code=200"));
  checks.push_back(expect_size(23));
  const auto verifier =
      expectations(make_verifier("statusCode", 200), "-v statusCode -code 200", std::move(checks));
  EXPECT_EQ(verifier->checks(),
            (std::vector<std::string>{"-v statusCode -code 200", "--expect-json /code=200",
                                      "--expect-size 23"}));
  EXPECT_TRUE(verifier->needs_body());
  const std::string ok = R"({"code":200,"msg":"ok"})";
  EXPECT_TRUE(verifier->accept(response(200, ok)));
  EXPECT_EQ(verifier->failed_check(response(200, ok)), 0);
  EXPECT_EQ(verifier->failed_check(response(503, ok)), 1);
  EXPECT_EQ(verifier->failed_check(response(200, R"({"code":500,"msg":"ok"})")), 2);
  EXPECT_EQ(verifier->failed_check(response(200, R"({"code":200,"msg":"okay"})")), 3);
  EXPECT_EQ(verifier->why_rejected(response(503, ok)), "status 503, not -code 200");
}

TEST(Expectations, WithoutABaseOnlyItsOwnChecks) {
  std::vector<std::unique_ptr<Check>> checks;
  checks.push_back(expect_status("500-599"));
  const auto verifier = expectations(nullptr, "unused", std::move(checks));
  EXPECT_EQ(verifier->checks(), (std::vector<std::string>{"--expect-status 500-599"}));
  EXPECT_TRUE(verifier->accept(response(503)));
  EXPECT_FALSE(verifier->needs_body());
}

}  // namespace
}  // namespace stampede::verify
