// Verifier tests: status code and JSON body checks, and the factory's error.
#include "verify/verifier.hpp"

#include <gtest/gtest.h>

namespace stampede::verify {
namespace {

model::Response response(int status, std::string body = {}) {
  model::Response r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

TEST(StatusCodeVerifier, AcceptsOnlyTheExpectedCode) {
  const auto verifier = make_verifier("statusCode", 200);
  EXPECT_TRUE(verifier->accept(response(200)));
  EXPECT_FALSE(verifier->accept(response(500)));
  EXPECT_FALSE(verifier->accept(response(0)));
  EXPECT_FALSE(verifier->needs_body());
  EXPECT_TRUE(make_verifier("statusCode", 500)->accept(response(500)));
}

TEST(JsonVerifier, ComparesTopLevelCode) {
  const auto verifier = make_verifier("json", 200);
  EXPECT_TRUE(verifier->needs_body());
  EXPECT_TRUE(verifier->accept(response(200, R"({"code":200,"msg":"ok"})")));
  EXPECT_TRUE(verifier->accept(response(500, R"({"code":"200"})")));
  EXPECT_FALSE(verifier->accept(response(200, R"({"code":500})")));
  EXPECT_FALSE(verifier->accept(response(200, R"({"msg":"no code"})")));
  EXPECT_FALSE(verifier->accept(response(200, R"([200])")));
  EXPECT_FALSE(verifier->accept(response(200, R"({"code":"20x"})")));
}

TEST(JsonVerifier, MalformedBodyIsARejectionNotACrash) {
  const auto verifier = make_verifier("json", 200);
  EXPECT_FALSE(verifier->accept(response(200, "")));
  EXPECT_FALSE(verifier->accept(response(200, "{\"code\":")));
  EXPECT_FALSE(verifier->accept(response(200, "\xff\xfe garbage")));
}

TEST(VerifierFactory, UnknownNameNamesTheChoices) {
  try {
    (void)make_verifier("xml", 200);
    FAIL() << "expected an exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("-v json"), std::string::npos);
  }
}

}  // namespace
}  // namespace stampede::verify
