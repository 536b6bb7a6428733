// Option syntax tests: long and short forms, clusters, attached arguments, --no-, warnings, errors.
#include "curl/command.hpp"

#include <gtest/gtest.h>

#include "tests/curl/error_text.hpp"

namespace stampede::curl {
namespace {

CurlCommand read(std::string_view text) { return read_command(split_bash(text).at(0)); }

std::string error_of(std::string_view text) {
  return error_text([&] { (void)read(text); });
}

TEST(ReadCommand, LongAndShortForms) {
  const auto c = read("curl --request PUT -H 'A: 1' --header 'B: 2' --url http://h/a http://h/b");
  ASSERT_TRUE(c.method);
  EXPECT_EQ(c.method->value, "PUT");
  ASSERT_EQ(c.headers.size(), 2U);
  EXPECT_EQ(c.headers[1].value, "B: 2");
  ASSERT_EQ(c.urls.size(), 2U);
  EXPECT_EQ(c.urls[0].value, "http://h/a");
  EXPECT_EQ(c.urls[1].where.column, 63);
}

TEST(ReadCommand, ClustersAndAttachedArguments) {
  const auto c = read("curl -sSLkIG -XPOST -d@body -H'X: y' -uu:p h");
  EXPECT_TRUE(c.location && c.insecure && c.head && c.get);
  EXPECT_EQ(c.method->value, "POST");
  ASSERT_EQ(c.data.size(), 1U);
  EXPECT_EQ(c.data[0].argument.value, "@body");
  EXPECT_EQ(c.data[0].kind, DataKind::ascii);
  EXPECT_EQ(c.data[0].argument.where.column, 23);
  EXPECT_EQ(c.headers[0].value, "X: y");
  EXPECT_EQ(c.user->value, "u:p");
  EXPECT_TRUE(c.warnings.empty());
}

TEST(ReadCommand, DataKindsFormsAndVersions) {
  const auto c = read(
      "curl --data-ascii a --data-raw b --data-binary c --data-urlencode d --json e -F f=1 "
      "--form-string g=2 --http2 --compressed --no-compressed h");
  ASSERT_EQ(c.data.size(), 5U);
  EXPECT_EQ(c.data[0].kind, DataKind::ascii);
  EXPECT_EQ(c.data[1].kind, DataKind::raw);
  EXPECT_EQ(c.data[2].kind, DataKind::binary);
  EXPECT_EQ(c.data[3].kind, DataKind::urlencode);
  EXPECT_EQ(c.data[4].kind, DataKind::json);
  ASSERT_EQ(c.form.size(), 2U);
  EXPECT_FALSE(c.form[0].literal);
  EXPECT_TRUE(c.form[1].literal);
  EXPECT_EQ(c.http_version, model::HttpVersion::http2);
  EXPECT_FALSE(c.compressed);  // the later --no-compressed wins
  EXPECT_EQ(read("curl --http1.1 h").http_version, model::HttpVersion::http1_1);
  EXPECT_EQ(read("curl --http2-prior-knowledge h").http_version,
            model::HttpVersion::http2_prior_knowledge);
  EXPECT_TRUE(read("curl --http2-prior-knowledge h").warnings.empty());
}

TEST(ReadCommand, OutputOptionsAreQuietOthersWarn) {
  EXPECT_TRUE(read("curl -s -v -o out -i -w '%{http_code}' -c jar -D - --fail h").warnings.empty());
  const auto c = read("curl --proxy http://p:3128 -r 0-99 --retry 3 h");
  ASSERT_EQ(c.warnings.size(), 3U);
  EXPECT_EQ(c.warnings[0].text, "curl option --proxy is not applied by stampede (ignored)");
  EXPECT_EQ(c.warnings[1].text, "curl option --range is not applied by stampede (ignored)");
  EXPECT_EQ(c.warnings[1].where.column, 29);  // the letter r
  ASSERT_EQ(c.urls.size(), 1U);               // their arguments are not taken for URLs
}

TEST(ReadCommand, UnknownOptionsAndMissingArgumentsAreErrors) {
  EXPECT_EQ(error_of("curl --frobnicate h"), "1:6: unknown curl option '--frobnicate'");
  EXPECT_EQ(error_of("curl -sZj h").find("1:6"), std::string::npos);
  EXPECT_EQ(error_of("curl -s%"), "1:8: unknown curl option '-%'");
  EXPECT_EQ(error_of("curl h -H"), "1:9: curl option -H (--header) needs an argument");
  EXPECT_EQ(error_of("curl h --data"), "1:8: curl option --data needs an argument");
  EXPECT_EQ(error_of("curl --no-data x h"), "1:6: unknown curl option '--no-data'");
}

}  // namespace
}  // namespace stampede::curl
