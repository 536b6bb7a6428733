// Options -> Request/Plan tests: URL forms, bodies from files, header splitting, errors.
#include "cmd/run_config.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace stampede::cmd {
namespace {

model::Request url(std::string_view text) {
  model::Request request;
  apply_url(text, request);
  return request;
}

TEST(ApplyUrl, SchemesPortsAndTargets) {
  auto r = url("http://127.0.0.1:8080/api?x=1#frag");
  EXPECT_EQ(r.scheme, model::Scheme::http);
  EXPECT_EQ(r.host, "127.0.0.1");
  EXPECT_EQ(r.port, 8080);
  EXPECT_EQ(r.target, "/api?x=1");
  r = url("https://localhost");
  EXPECT_EQ(r.scheme, model::Scheme::https);
  EXPECT_EQ(r.port, 443);
  EXPECT_EQ(r.target, "/");
  r = url("localhost:9000/x");  // a bare host means http://
  EXPECT_EQ(r.scheme, model::Scheme::http);
  EXPECT_EQ(r.host, "localhost");
  EXPECT_EQ(r.port, 9000);
  EXPECT_EQ(r.target, "/x");
  r = url("http://[::1]:81/");
  EXPECT_EQ(r.host, "::1");
  EXPECT_EQ(r.port, 81);
}

TEST(ApplyUrl, MalformedUrlsAreUsageErrors) {
  for (const char* bad :
       {"http://", "ftp://x/", "http://h:0/", "http://h:99999/", "http://a b/", "://x"}) {
    EXPECT_THROW(url(bad), UsageError) << bad;
  }
}

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
