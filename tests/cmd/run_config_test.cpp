// Options -> Request/Plan tests: bodies from files, header splitting, errors.
#include "cmd/run_config.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace stampede::cmd {
namespace {

TEST(MakeRunConfig, DataMakesAPostAndFileBodiesAreRead) {
  const auto path = testing::TempDir() + "stampede_body.json";
  std::ofstream(path) << R"({"a":1})";
  Options options;
  options.url = "http://h/";
  options.data = "@" + path;
  options.has_data = true;
  options.headers = {"Authorization: Bearer x", "X-Empty:"};
  const auto config = make_run_config(options);
  EXPECT_EQ(config.request.method, "POST");
  EXPECT_EQ(config.request.body, R"({"a":1})");
  ASSERT_EQ(config.request.headers.size(), 2U);
  EXPECT_EQ(config.request.headers[0].first, "Authorization");
  EXPECT_EQ(config.request.headers[0].second, "Bearer x");
  EXPECT_EQ(config.request.headers[1].second, "");
  std::remove(path.c_str());
}

TEST(MakeRunConfig, ExplicitMethodWinsAndPlanComesFromFlags) {
  Options options;
  options.url = "http://h/";
  options.method = "PUT";
  options.users = 3;
  options.requests = 4;
  options.threads = 2;
  options.request_timeout_s = 1.5;
  const auto config = make_run_config(options);
  EXPECT_EQ(config.request.method, "PUT");
  EXPECT_EQ(config.plan.users, 3U);
  EXPECT_EQ(config.plan.requests_per_user, 4U);
  EXPECT_EQ(config.plan.threads, 2U);
  EXPECT_EQ(config.plan.request_timeout, std::chrono::milliseconds(1500));
}

/// A curl file in the test's temp dir.
std::string curl_file(const std::string& name, const std::string& text) {
  const auto path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(MakeRunConfig, CurlFileStepsWithCommandLineOverrides) {
  Options options;
  options.curl_file = curl_file("stampede_flow.curl.txt",
                                "curl -H 'Accept:' -H 'X-A: file' -d a=1 -m 1.5 http://h/one\n"
                                "curl --proxy p http://h/two\n");
  auto config = make_run_config(options);
  ASSERT_EQ(config.steps.size(), 2U);
  EXPECT_EQ(config.request.target, "/one");
  EXPECT_EQ(config.request.method, "POST");
  EXPECT_EQ(config.plan.request_timeout, std::chrono::milliseconds(1500));  // the file's -m
  ASSERT_EQ(config.warnings.size(), 2U);
  EXPECT_NE(config.warnings[0].find("--proxy is not applied"), std::string::npos);
  EXPECT_NE(config.warnings[1].find("2 requests (a flow); this version runs only the first"),
            std::string::npos);

  options.url = "http://other:8080/x";
  options.headers = {"x-a: flag", "Accept: text/plain", "X-B: 2"};
  options.data = "z";
  options.has_data = true;
  options.method = "PUT";
  options.keep_alive = true;
  options.has_request_timeout = true;
  config = make_run_config(options);
  const auto& r = config.request;
  EXPECT_EQ(r.host, "other");
  EXPECT_EQ(r.target, "/x");
  EXPECT_EQ(r.method, "PUT");
  EXPECT_EQ(r.body, "z");
  EXPECT_TRUE(r.keep_alive);
  EXPECT_TRUE(r.omit_headers.empty());  // -H Accept here undoes the file's -H 'Accept:'
  const std::vector<std::pair<std::string, std::string>> headers{
      {"X-A", "flag"},
      {"Content-Type", "application/x-www-form-urlencoded"},
      {"Accept", "text/plain"},
      {"X-B", "2"}};
  EXPECT_EQ(r.headers, headers);
  EXPECT_EQ(config.plan.request_timeout, std::chrono::seconds(30));  // -t wins
}

TEST(MakeRunConfig, BadCurlFileIsAUsageErrorWithItsPlace) {
  Options options;
  options.curl_file = curl_file("stampede_bad.curl.txt", "curl \\\n  -H 'X");
  try {
    (void)make_run_config(options);
    FAIL() << "no error";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()), options.curl_file + ":2:6: unterminated single quote (')");
  }
}

TEST(MakeRunConfig, BadInputIsAUsageError) {
  Options options;
  EXPECT_THROW(make_run_config(options), UsageError);  // no URL
  options.url = "http://h/";
  options.data = "@/nonexistent/body";
  options.has_data = true;
  EXPECT_THROW(make_run_config(options), UsageError);
  options.data.clear();
  options.headers = {"no colon here"};
  EXPECT_THROW(make_run_config(options), UsageError);
}

}  // namespace
}  // namespace stampede::cmd
