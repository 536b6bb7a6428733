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
