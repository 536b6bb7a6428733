// CLI tests: go-stress-testing's spellings, long forms, defaults and one-line usage errors.
#include "cmd/options.hpp"

#include <gtest/gtest.h>

#include <initializer_list>

namespace stampede::cmd {
namespace {

Options parse(std::initializer_list<const char*> words) {
  const std::vector<const char*> args(words);
  return parse_options(args);
}

std::string usage_error(std::initializer_list<const char*> words) {
  try {
    (void)parse(words);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Options, Defaults) {
  const auto o = parse({"-u", "http://127.0.0.1/"});
  EXPECT_EQ(o.users, 1);
  EXPECT_EQ(o.requests, 1);
  EXPECT_FALSE(o.keep_alive);
  EXPECT_EQ(o.request_timeout_s, 30);
  EXPECT_EQ(o.run_timeout_s, 0);
  EXPECT_EQ(o.verify, "statusCode");
  EXPECT_EQ(o.code, 200);
  EXPECT_EQ(o.output, "text");
}

TEST(Options, GoStressTestingSpellings) {
  const auto o = parse({"-c", "100",  "-n",    "20",    "-u",  "http://h/", "-H", "A: 1",
                        "-H", "B: 2", "-data", "x=1",   "-k",  "-timeout",  "9",  "-cpuNumber",
                        "3",  "-v",   "json",  "-code", "201", "-redirect", "-d", "true"});
  EXPECT_EQ(o.users, 100);
  EXPECT_EQ(o.requests, 20);
  EXPECT_EQ(o.url, "http://h/");
  EXPECT_EQ(o.headers, (std::vector<std::string>{"A: 1", "B: 2"}));
  EXPECT_EQ(o.data, "x=1");
  EXPECT_TRUE(o.has_data);
  EXPECT_TRUE(o.keep_alive);
  EXPECT_EQ(o.run_timeout_s, 9);
  EXPECT_EQ(o.threads, 3);
  EXPECT_EQ(o.verify, "json");
  EXPECT_EQ(o.code, 201);
  EXPECT_TRUE(o.redirect);
  EXPECT_TRUE(o.debug);
  EXPECT_FALSE(o.http2);
}

TEST(Options, Http2Spellings) {
  for (const char* flag : {"-http2", "--http2", "-http2=true"}) {
    EXPECT_TRUE(parse({flag, "-u", "http://h/"}).http2) << flag;
  }
  EXPECT_TRUE(parse({"-http2", "true", "-u", "http://h/"}).http2);
  EXPECT_FALSE(parse({"-http2=false", "-u", "http://h/"}).http2);
}

TEST(Options, LongFormsAndGoBooleanValues) {
  const auto o =
      parse({"--concurrency", "5", "--requests=7", "--url", "http://h/", "--header", "A: 1",
             "--data", "d", "--keepalive=false", "--request-timeout", "1.5", "--timeout", "3",
             "--cpuNumber=2", "--insecure", "--output", "json", "-d=false"});
  EXPECT_EQ(o.users, 5);
  EXPECT_EQ(o.requests, 7);
  EXPECT_FALSE(o.keep_alive);
  EXPECT_EQ(o.request_timeout_s, 1.5);
  EXPECT_EQ(o.threads, 2);
  EXPECT_TRUE(o.insecure);
  EXPECT_EQ(o.output, "json");
  EXPECT_FALSE(o.debug);
}

TEST(Options, CurlFileSpellingsAndPrintRequest) {
  for (const char* flag : {"-p", "--p", "--curl", "-curl"}) {
    EXPECT_EQ(parse({flag, "req.txt"}).curl_file, "req.txt") << flag;
  }
  EXPECT_EQ(parse({"--p=req.txt"}).curl_file, "req.txt");
  const auto o = parse({"-p", "r", "--print-request", "-t", "2"});
  EXPECT_TRUE(o.print_request);
  EXPECT_TRUE(o.has_request_timeout);
  EXPECT_FALSE(parse({"-p", "r"}).has_request_timeout);
}

TEST(Options, UrlMayBeTheLastWord) {
  EXPECT_EQ(parse({"-c", "2", "http://h:81/x"}).url, "http://h:81/x");
}

TEST(Options, HelpAndVersionSkipValidation) {
  EXPECT_TRUE(parse({"-h"}).help);
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"--version"}).version);
  EXPECT_TRUE(parse({"-c", "0", "--help"}).help);
}

TEST(Options, UsageErrorsSayWhatAndHow) {
  EXPECT_EQ(usage_error({"-x"}), "unknown flag '-x' (see stampede --help)");
  EXPECT_NE(usage_error({"--bogus", "1"}).find("unknown flag"), std::string::npos);
  EXPECT_NE(usage_error({"-c", "0"}).find("-c must be at least 1"), std::string::npos);
  EXPECT_NE(usage_error({"-c", "-3"}).find("-c must be at least 1"), std::string::npos);
  EXPECT_NE(usage_error({"-c", "abc"}).find("invalid"), std::string::npos);
  EXPECT_NE(usage_error({"-n", "0"}).find("-n 0 needs -timeout"), std::string::npos);
  EXPECT_NE(usage_error({"-t", "0"}).find("-t must be"), std::string::npos);
  EXPECT_NE(usage_error({"-t", "1e300"}).find("at most a year"), std::string::npos);
  EXPECT_NE(usage_error({"-t", "nan"}).find("-t must be"), std::string::npos);
  EXPECT_NE(usage_error({"-n", "0", "-timeout", "nan"}).find("-timeout must be"),
            std::string::npos);
  EXPECT_NE(usage_error({"-v", "xml"}).find("-v statusCode"), std::string::npos);
  EXPECT_NE(usage_error({"--output", "xml"}).find("--output text"), std::string::npos);
  EXPECT_NE(usage_error({"-c"}).find("missing"), std::string::npos);
}

TEST(Options, EveryHelpedFlagParses) {
  const auto help = help_text();
  for (const char* flag :
       {"-u", "-H", "-data", "-X", "-k", "-redirect", "--insecure", "-c", "-n", "-t", "-timeout",
        "-cpuNumber", "-v", "-code", "--output", "-d", "-p", "--print-request", "-http2"}) {
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace stampede::cmd
