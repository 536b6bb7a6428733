// /acc's answers: go-stress-testing's ping, the seq copied as written, and every bad message.
#include "target_server/acc.hpp"

#include <gtest/gtest.h>

#include <string>

namespace stampede::target_server {
namespace {

std::string answer(const std::string& seq, const std::string& cmd, int code,
                   const std::string& message) {
  return R"({"seq":)" + seq + R"(,"cmd":)" + cmd + R"(,"response":{"code":)" +
         std::to_string(code) + R"(,"codeMsg":")" + message + R"(","data":null}})";
}

const std::string bad_request = answer(R"("")", R"("")", 400, "bad request");

TEST(TargetAcc, AnswersPingWithItsSeq) {
  EXPECT_EQ(acc_reply(R"({"seq":"1565336219141-266129","cmd":"ping","data":{}})", true),
            R"({"seq":"1565336219141-266129","cmd":"ping","response":{"code":200,)"
            R"("codeMsg":"Success","data":null}})");
  // Whitespace, member order, other members and escapes in the seq: copied as written.
  EXPECT_EQ(acc_reply(" {\n\"data\" : {\"a\":[1,-2.5e3,true,null,\"x\"]}, \"cmd\":\"ping\","
                      "\"seq\":\"a\\\"b\\u00e9\\n\"} \r\n",
                      true),
            answer(R"("a\"b\u00e9\n")", R"("ping")", 200, "Success"));
  EXPECT_EQ(acc_reply(R"({"seq":"","cmd":"ping"})", true),
            answer(R"("")", R"("ping")", 200, "Success"));
}

TEST(TargetAcc, AnswersOtherCommandsWith404) {
  EXPECT_EQ(acc_reply(R"({"seq":"7","cmd":"login","data":{"userId":"1"}})", true),
            answer(R"("7")", R"("login")", 404, "unknown cmd"));
}

TEST(TargetAcc, AnswersWhatIsNotAPingWith400) {
  for (const std::string message : {"",
                                    "ping",
                                    "{",
                                    "}",
                                    "[]",
                                    "null",
                                    R"("seq")",
                                    R"({"seq":"1","cmd":"ping"} x)",
                                    R"({"seq":"1","cmd":"ping",})",
                                    R"({"seq":"1" "cmd":"ping"})",
                                    R"({"seq":"1","cmd":ping})",
                                    R"({"seq":"1\x","cmd":"ping"})",
                                    R"({"seq":"1\u12G4","cmd":"ping"})",
                                    "{\"seq\":\"1\t\",\"cmd\":\"ping\"}",
                                    R"({"seq":"1","cmd":"ping","data":01})",
                                    R"({"seq":"1","cmd":"ping","data":1.})",
                                    R"({"seq":"1","cmd":"ping","data":-})",
                                    R"({"seq":"1","cmd":"ping","data":tru})",
                                    R"({"seq":"1","cmd":"ping)",
                                    "{\"seq\":\"1\\"}) {
    EXPECT_EQ(acc_reply(message, true), bad_request) << message;
  }
}

TEST(TargetAcc, CopiesWhatItCouldReadIntoA400) {
  EXPECT_EQ(acc_reply(R"({"seq":1,"cmd":"ping"})", true),  // a number is not go's string seq
            answer(R"("")", R"("ping")", 400, "bad request"));
  EXPECT_EQ(acc_reply(R"({"seq":"9"})", true), answer(R"("9")", R"("")", 400, "bad request"));
  EXPECT_EQ(acc_reply(R"({"s\u0065q":"9","cmd":"ping"})", true),  // keys compared as written
            answer(R"("")", R"("ping")", 400, "bad request"));
}

TEST(TargetAcc, AnswersBinaryMessagesWith400) {
  EXPECT_EQ(acc_reply(R"({"seq":"1","cmd":"ping","data":{}})", false), bad_request);
}

TEST(TargetAcc, RefusesDeepNestingWithoutExhaustingTheStack) {
  const auto nested = [](int depth) {
    return R"({"seq":"1","cmd":"ping","data":)" + std::string(depth, '[') +
           std::string(depth, ']') + "}";
  };
  EXPECT_EQ(acc_reply(nested(max_json_depth - 1), true),
            answer(R"("1")", R"("ping")", 200, "Success"));
  EXPECT_EQ(acc_reply(nested(max_json_depth), true), bad_request);
  EXPECT_EQ(acc_reply(std::string(1'000'000, '['), true), bad_request);
  EXPECT_EQ(acc_reply(std::string(500'000, '{') + std::string(500'000, '}'), true), bad_request);
}

}  // namespace
}  // namespace stampede::target_server
