// Option syntax tests: long and short forms, clusters, attached arguments, --no-, warnings, errors.
#include "curl/command.hpp"

#include <gtest/gtest.h>

#include "tests/curl/error_text.hpp"

namespace stampede::curl {
namespace {

std::vector<CurlCommand> read_all(std::string_view text) {
  std::vector<Warning> warnings;
  const auto no_environment = [](const std::string&) { return std::optional<std::string>(); };
  return read_commands(split_bash(text, no_environment, warnings).at(0).words);
}

CurlCommand read(std::string_view text) { return read_all(text).at(0); }

std::string command_error(std::string_view text) {
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
  const auto c = read("curl --proxy http://p:3128 -4 --retry 3 h");
  ASSERT_EQ(c.warnings.size(), 3U);
  EXPECT_EQ(c.warnings[0].text, "curl option --proxy is not applied by stampede (ignored)");
  EXPECT_EQ(c.warnings[1].text, "curl option --ipv4 is not applied by stampede (ignored)");
  EXPECT_EQ(c.warnings[1].where.column, 29);  // the letter 4
  ASSERT_EQ(c.urls.size(), 1U);               // their arguments are not taken for URLs
}

TEST(ReadCommand, UnknownOptionsAndMissingArgumentsAreErrors) {
  EXPECT_EQ(command_error("curl --frobnicate h"), "1:6: unknown curl option '--frobnicate'");
  EXPECT_EQ(command_error("curl -sZj h").find("1:6"), std::string::npos);
  EXPECT_EQ(command_error("curl -s%"), "1:8: unknown curl option '-%'");
  EXPECT_EQ(command_error("curl h -H"), "1:9: curl option -H (--header) needs an argument");
  EXPECT_EQ(command_error("curl h --data"), "1:8: curl option --data needs an argument");
  EXPECT_EQ(command_error("curl --no-data x h"), "1:6: unknown curl option '--no-data'");
}

TEST(ReadCommand, LongOptionsByUnambiguousPrefix) {
  const auto c =
      read("curl --sil --compressed --no-compressed --url-q a=1 --user-ag x --location h");
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_FALSE(c.compressed);
  ASSERT_EQ(c.url_queries.size(), 1U);
  EXPECT_EQ(c.user_agent->value, "x");
  EXPECT_TRUE(c.location);                      // not --location-trusted: exact names win
  EXPECT_EQ(read("curl --head h").head, true);  // an exact name wins over longer ones
  EXPECT_EQ(command_error("curl --hea h"), "1:6: ambiguous curl option '--hea' (--head, --header)");
  EXPECT_EQ(command_error("curl --no-he h"),
            "1:6: ambiguous curl option '--no-he' (--head, --help)");
  EXPECT_EQ(command_error("curl --loc h"),
            "1:6: ambiguous curl option '--loc' (--local-port, --location, --location-trusted)");
  EXPECT_EQ(command_error("curl --compr h"),
            "1:6: ambiguous curl option '--compr' (--compressed, --compressed-ssh)");
}

TEST(ReadCommand, NextStartsAnotherCommand) {
  const auto commands = read_all("curl -d a h1 --next h2 --nex -X PUT h3");
  ASSERT_EQ(commands.size(), 3U);
  EXPECT_EQ(commands[0].data.size(), 1U);
  EXPECT_TRUE(commands[1].data.empty());
  EXPECT_EQ(commands[1].urls.at(0).value, "h2");
  EXPECT_EQ(commands[2].method->value, "PUT");
}

TEST(ReadCommand, OptionsThatShapeTheRequest) {
  const auto c = read(
      "curl -r 0-9 --url-query a=1 --oauth2-bearer T -z -2020-01-01 --proto-default https "
      "--request-target '*' --unix-socket /s --resolve h:80:127.0.0.1 --connect-to ::x:81 "
      "--path-as-is --digest -0 h");
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(c.range->value, "0-9");
  EXPECT_EQ(c.url_queries.at(0).value, "a=1");
  EXPECT_EQ(c.bearer->value, "T");
  EXPECT_EQ(c.time_condition->value, "-2020-01-01");
  EXPECT_EQ(c.default_protocol->value, "https");
  EXPECT_EQ(c.request_target->value, "*");
  EXPECT_EQ(c.unix_socket->value, "/s");
  EXPECT_FALSE(c.abstract_socket);
  EXPECT_EQ(c.resolves.at(0).value, "h:80:127.0.0.1");
  EXPECT_EQ(c.connect_tos.at(0).value, "::x:81");
  EXPECT_TRUE(c.path_as_is && c.digest);
  EXPECT_EQ(c.http_version, model::HttpVersion::http1_0);
  EXPECT_TRUE(read("curl --abstract-unix-socket s h").abstract_socket);
}

}  // namespace
}  // namespace stampede::curl
