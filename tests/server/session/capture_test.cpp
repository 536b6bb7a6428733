// CompiledCapture tests: what each source takes from a response, and when it finds nothing.
#include "server/session/capture.hpp"

#include <gtest/gtest.h>

#include <optional>

namespace stampede::session {
namespace {

using model::CaptureSource;

std::optional<std::string> taken(model::Capture capture, const model::Response& response) {
  const CompiledCapture compiled(std::move(capture), 0);
  std::string value = "old";
  if (!compiled.extract(response, value)) return std::nullopt;
  return value;
}

model::Response with_body(std::string body) {
  model::Response response;
  response.body = std::move(body);
  return response;
}

TEST(Capture, JsonStringsAsTheyAreOtherValuesAsCompactJson) {
  const auto response = with_body(
      R"({"token":"a\"b","n":42,"ok":true,"items":[{"id":"i-1"}],"o":{"x": 1},"z":null})");
  const auto json = [&](std::string pointer) {
    return taken({"v", CaptureSource::json, std::move(pointer), ""}, response);
  };
  EXPECT_EQ(json("/token"), "a\"b");
  EXPECT_EQ(json("/n"), "42");
  EXPECT_EQ(json("/ok"), "true");
  EXPECT_EQ(json("/items/0/id"), "i-1");
  EXPECT_EQ(json("/o"), R"({"x":1})");
  EXPECT_EQ(json("/z"), std::nullopt);  // null is nothing to send
  EXPECT_EQ(json("/missing"), std::nullopt);
  EXPECT_EQ(json("/items/1/id"), std::nullopt);
  EXPECT_EQ(json("/items/x"), std::nullopt);
  EXPECT_EQ(json("/n/deeper"), std::nullopt);
  EXPECT_EQ(taken({"v", CaptureSource::json, "/a", ""}, with_body("<html>not json")), std::nullopt);
  EXPECT_EQ(taken({"v", CaptureSource::json, "/a", ""}, with_body("")), std::nullopt);
}

TEST(Capture, HeadersWholeOrByPattern) {
  model::Response response;
  response.headers = {
      {"location", "/orders/17?x=1"}, {"x-session", "s-abc"}, {"x-session", "s-second"}};
  EXPECT_EQ(taken({"v", CaptureSource::header, "x-session", ""}, response), "s-abc");
  EXPECT_EQ(taken({"v", CaptureSource::header, "location", "/orders/(\\d+)"}, response), "17");
  EXPECT_EQ(taken({"v", CaptureSource::header, "location", "\\?.*"}, response), "?x=1");
  EXPECT_EQ(taken({"v", CaptureSource::header, "location", "/users/(\\d+)"}, response),
            std::nullopt);
  EXPECT_EQ(taken({"v", CaptureSource::header, "etag", ""}, response), std::nullopt);
}

TEST(Capture, BodyByPatternItsGroupOrItsMatch) {
  const auto response = with_body("<input name=\"csrf\" value=\"f00d\">\n<p>id 42</p>");
  EXPECT_EQ(taken({"v", CaptureSource::body, "", "value=\"([0-9a-f]+)\""}, response), "f00d");
  EXPECT_EQ(taken({"v", CaptureSource::body, "", "\\d+"}, response), "00");  // the first match
  EXPECT_EQ(taken({"v", CaptureSource::body, "", "id (\\d+)"}, response), "42");
  EXPECT_EQ(taken({"v", CaptureSource::body, "", "token=(\\w+)"}, response), std::nullopt);
  // A group that did not take part in the match found nothing.
  EXPECT_EQ(taken({"v", CaptureSource::body, "", "id (x)?"}, response), std::nullopt);
}

TEST(Capture, LongBodiesAndRunawayPatternsNeitherCrashNorHang) {
  // std::regex recursed once a character here and overflowed the stack.
  const auto big = with_body("\"data\":\"" + std::string(5'000'000, 'a') + "\"");
  const auto value = taken({"v", CaptureSource::body, "", "\"data\":\"(.*)\""}, big);
  ASSERT_TRUE(value);
  EXPECT_EQ(value->size(), 5'000'000U);
  // Exponential backtracking: Boost.Regex gives up, and the capture finds nothing.
  EXPECT_EQ(taken({"v", CaptureSource::body, "", "(a*)*b"}, with_body(std::string(40, 'a'))),
            std::nullopt);
}

}  // namespace
}  // namespace stampede::session
