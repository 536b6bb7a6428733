// Verifier tests: status code and JSON body checks, and the factory's error.
#include "verify/verifier.hpp"
#include "tests/verify/responses.hpp"

#include <gtest/gtest.h>

namespace stampede::verify {
namespace {

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

/// A WebSocket reply (no status) to go-stress-testing's ping with seq `sent_seq`.
model::Response reply(std::string body, std::string sent_seq = "0_1") {
  model::Response r = response(0, std::move(body));
  r.websocket = true;
  r.sent_seq = std::move(sent_seq);
  return r;
}

TEST(StatusCodeVerifier, AWebSocketReplyArrivingIsTheSuccess) {
  const auto verifier = make_verifier("statusCode", 200);
  EXPECT_TRUE(verifier->accept(reply("anything", "")));
  EXPECT_FALSE(verifier->accept(response(0, "anything")));  // no status and no WebSocket: no
}

TEST(JsonVerifier, AWebSocketReplyHasItsCodeInsideResponseAndEchoesTheSeq) {
  const auto verifier = make_verifier("json", 200);
  const auto ok = R"({"seq":"0_1","cmd":"ping","response":{"code":200,"codeMsg":"Success"}})";
  EXPECT_TRUE(verifier->accept(reply(ok)));
  EXPECT_TRUE(verifier->accept(reply(R"({"seq":"0_1","response":{"code":"200"}})")));
  EXPECT_TRUE(verifier->accept(reply(R"({"code":200})", "")));  // a -data message: no seq
  const auto other_seq = reply(R"({"seq":"0_2","cmd":"ping","response":{"code":200}})");
  EXPECT_FALSE(verifier->accept(other_seq));
  EXPECT_EQ(verifier->why_rejected(other_seq),
            R"(the reply's "seq" is "0_2", not the ping's "0_1")");
  const auto no_seq = reply(R"({"cmd":"ping","response":{"code":200}})");
  EXPECT_FALSE(verifier->accept(no_seq));
  EXPECT_EQ(verifier->why_rejected(no_seq), R"(the reply's "seq" is null, not the ping's "0_1")");
  EXPECT_FALSE(verifier->accept(reply(R"({"seq":1,"response":{"code":200}})", "1")));
  const auto failed = reply(R"({"seq":"0_1","cmd":"ping","response":{"code":500}})");
  EXPECT_FALSE(verifier->accept(failed));
  EXPECT_EQ(verifier->why_rejected(failed), R"(the body's "code" is 500, not -code 200)");
  EXPECT_FALSE(verifier->accept(reply(R"({"seq":"0_1","response":200})")));
}

TEST(JsonVerifier, OnlyAWebSocketReplyMayHaveItsCodeInsideResponse) {
  const auto verifier = make_verifier("json", 200);
  const auto nested = response(200, R"({"response":{"code":200}})");
  EXPECT_FALSE(verifier->accept(nested));
  EXPECT_EQ(verifier->why_rejected(nested), R"(the body's JSON object has no "code" (-code 200))");
  // An HTTP response carries no seq to echo, whatever a reused Response held before.
  EXPECT_TRUE(verifier->accept(response(200, R"({"seq":"x","code":200})")));
}

TEST(VerifierKinds, OneTableNamesMakesAndBoundsEachVerifier) {
  ASSERT_EQ(verifier_kinds().size(), 2U);
  EXPECT_EQ(verifier_kinds()[0].name, "statusCode");  // the default comes first
  for (const auto& kind : verifier_kinds()) {
    EXPECT_EQ(find_verifier_kind(kind.name), &kind);
    EXPECT_FALSE(kind.description.empty());
    EXPECT_LE(kind.min_code, 200);
    EXPECT_GE(kind.max_code, 200);
    EXPECT_TRUE(kind.make(200)->accept(response(200, R"({"code":200})"))) << kind.name;
  }
  EXPECT_EQ(find_verifier_kind("xml"), nullptr);
  EXPECT_EQ(find_verifier_kind("StatusCode"), nullptr);  // as go-stress-testing: case matters
  EXPECT_EQ(verifier_choices(), "-v statusCode or -v json");
  EXPECT_EQ(find_verifier_kind("statusCode")->max_code, 599);
  EXPECT_EQ(find_verifier_kind("json")->min_code, -2147483648LL);
  EXPECT_TRUE(make_verifier("json", 0)->accept(response(200, R"({"code":0})")));
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
