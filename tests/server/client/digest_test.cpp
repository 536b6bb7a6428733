// --digest: challenges read as servers write them, answers as RFC 7616's examples give them.
#include "server/client/digest.hpp"

#include <gtest/gtest.h>

namespace stampede::client {
namespace {

// RFC 7616, section 3.9.1.
constexpr std::string_view rfc_challenge =
    R"(Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, )"
    R"(nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", )"
    R"(opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS")";
constexpr std::string_view rfc_cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ";
const model::Credentials mufasa{"Mufasa", "Circle of Life"};

TEST(Digest, AnswersRfc7616sMd5AndSha256Examples) {
  auto challenge = parse_digest_challenge(rfc_challenge);
  ASSERT_TRUE(challenge);
  EXPECT_EQ(challenge->realm, "http-auth@example.org");
  EXPECT_TRUE(challenge->qop_auth);
  EXPECT_EQ(digest_authorization(*challenge, mufasa, "GET", "/dir/index.html", rfc_cnonce),
            R"(Digest username="Mufasa", realm="http-auth@example.org", )"
            R"(nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", uri="/dir/index.html", )"
            R"(cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", nc=00000001, qop=auth, )"
            R"(response="8ca523f5e9506fed4657c9700eebdbec", )"
            R"(opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", algorithm=MD5)");
  challenge->algorithm = "SHA-256";
  const auto sha = digest_authorization(*challenge, mufasa, "GET", "/dir/index.html", rfc_cnonce);
  EXPECT_NE(
      sha.find(R"(response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")"),
      std::string::npos)
      << sha;
}

TEST(Digest, FindsTheDigestChallengeAmongOthersAndRefusesWhatItCannotAnswer) {
  const auto mixed = parse_digest_challenge(R"(Basic realm="x", Digest realm="r", nonce="n")");
  ASSERT_TRUE(mixed);
  EXPECT_EQ(mixed->realm, "r");
  EXPECT_FALSE(mixed->qop_auth);  // RFC 2069's answer: no cnonce, no nc
  EXPECT_EQ(digest_authorization(*mixed, {"u", "p"}, "GET", "/", "c"),
            R"(Digest username="u", realm="r", nonce="n", uri="/", )"
            R"(response="f23121ca97143c6b358da620220c83b4")");
  EXPECT_FALSE(parse_digest_challenge(R"(Basic realm="x")"));
  EXPECT_FALSE(parse_digest_challenge(R"(Digest realm="r", nonce="n", qop="auth-int")"));
  EXPECT_FALSE(parse_digest_challenge(R"(Digest realm="r", nonce="n", algorithm=SHA-1)"));
  EXPECT_FALSE(parse_digest_challenge(R"(Digest realm="r")"));  // no nonce
  EXPECT_FALSE(parse_digest_challenge("NotDigest realm=r, nonce=n"));
}

TEST(Digest, AnswersA401OnceWithTheStepsCredentials) {
  model::Request step;
  step.origin = {model::Scheme::http, "127.0.0.1", 8080};
  step.target = "/private";
  step.digest = model::Credentials{"u", "p"};
  model::Response response;
  response.status = 401;
  response.headers = {{"www-authenticate", R"(Digest realm="r", nonce="n", qop="auth")"}};
  bool answered = false;
  const auto answer = answer_challenge(step, answered, response);
  ASSERT_TRUE(answer);
  EXPECT_TRUE(answered);
  EXPECT_EQ(answer->target, "/private");
  ASSERT_EQ(answer->headers.size(), 1u);
  EXPECT_EQ(answer->headers[0].first, "Authorization");
  EXPECT_TRUE(answer->headers[0].second.starts_with(R"(Digest username="u", realm="r")"))
      << answer->headers[0].second;
  EXPECT_FALSE(answer_challenge(step, answered, response));  // once an exchange
  answered = false;
  response.status = 200;
  EXPECT_FALSE(answer_challenge(step, answered, response));
  step.digest.reset();
  response.status = 401;
  EXPECT_FALSE(answer_challenge(step, answered, response));
}

// --digest --basic: curl answers what the server offers, Digest before Basic.
TEST(Digest, WithBasicTooABasicOnlyChallengeIsAnsweredWithBasic) {
  model::Request step;
  step.origin = {model::Scheme::http, "127.0.0.1", 8080};
  step.digest = model::Credentials{"ada", "pw", false};
  model::Response response;
  response.status = 401;
  response.headers = {{"www-authenticate", R"(Basic realm="r")"}};
  bool answered = false;
  EXPECT_FALSE(answer_challenge(step, answered, response));  // --digest alone: Digest only
  step.digest->basic_too = true;
  const auto basic = answer_challenge(step, answered, response);
  ASSERT_TRUE(basic);
  EXPECT_EQ(basic->headers.back().second, "Basic YWRhOnB3");
  answered = false;
  response.headers.emplace_back("www-authenticate", R"(Digest realm="r", nonce="n")");
  const auto digest = answer_challenge(step, answered, response);
  ASSERT_TRUE(digest);
  EXPECT_TRUE(digest->headers.back().second.starts_with("Digest "))
      << digest->headers.back().second;
}

}  // namespace
}  // namespace stampede::client
