// Options -> Request/Plan tests: bodies from files, header splitting, errors.
#include "cmd/run_config.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "server/client/prepared_request.hpp"

namespace stampede::cmd {
namespace {

TEST(MakeRunConfig, DataMakesAPostAndFileBodiesAreRead) {
  const auto path = testing::TempDir() + "stampede_body.json";
  std::ofstream(path) << R"({"a":1})";
  Options options;
  options.url = "http://h/";
  options.data = "@" + path;
  options.has_data = true;
  options.headers = {"Authorization: Bearer x", "X-Empty;"};
  const auto config = make_run_config(options);
  EXPECT_EQ(config.steps.at(0).method, "POST");
  EXPECT_EQ(config.steps.at(0).body, R"({"a":1})");
  ASSERT_EQ(config.steps.at(0).headers.size(), 2U);
  EXPECT_EQ(config.steps.at(0).headers[0].first, "Authorization");
  EXPECT_EQ(config.steps.at(0).headers[0].second, "Bearer x");
  EXPECT_EQ(config.steps.at(0).headers[1].first, "X-Empty");
  EXPECT_EQ(config.steps.at(0).headers[1].second, "");
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
  EXPECT_EQ(config.steps.at(0).method, "PUT");
  EXPECT_EQ(config.plan.users, 3U);
  EXPECT_EQ(config.plan.rounds_per_user, 4U);
  EXPECT_EQ(config.plan.threads, 2U);
  EXPECT_EQ(config.plan.request_timeout, std::chrono::milliseconds(1500));
}

TEST(MakeRunConfig, DurationMakesUsersLoopUntilTheTimeIsUp) {
  Options options;
  options.url = "http://h/";
  options.duration = "2m";
  const auto config = make_run_config(options);
  EXPECT_EQ(config.plan.duration, std::chrono::minutes(2));
  EXPECT_EQ(config.plan.rounds_per_user, 0U);  // until the time is up
  options.listen = true;  // --listen: the -n messages first, then listening until the time is up
  options.has_data = true;
  options.data = "hi";
  options.url = "ws://h/";
  options.requests = 3;
  EXPECT_EQ(make_run_config(options).plan.rounds_per_user, 3U);
  options.duration.clear();
  EXPECT_EQ(make_run_config(options).plan.duration, std::chrono::milliseconds(0));
}

TEST(MakeRunConfig, ThinkIsASpanOfPauses) {
  Options options;
  options.url = "http://h/";
  options.think = "200ms-1s";
  const auto plan = make_run_config(options).plan;
  EXPECT_EQ(plan.think_min, std::chrono::milliseconds(200));
  EXPECT_EQ(plan.think_max, std::chrono::seconds(1));
}

TEST(MakeRunConfig, RateWithNIsTheRunsTotalAndWithZTheWindows) {
  Options options;
  options.url = "http://h/";
  options.rate = 250;
  options.has_rate = true;
  options.requests = 1000;
  options.has_requests = true;
  auto plan = make_run_config(options).plan;
  EXPECT_EQ(plan.rate, 250);
  EXPECT_EQ(plan.rate_rounds, 1000U);  // in all, not per user
  options.has_requests = false;
  options.duration = "10s";
  plan = make_run_config(options).plan;
  EXPECT_EQ(plan.rate_rounds, 0U);  // the window decides
  EXPECT_EQ(plan.duration, std::chrono::seconds(10));
}

TEST(MakeRunConfig, StagesSetThePeakUsersAndTheRunsLength) {
  Options options;
  options.url = "http://h/";
  options.stages = "30s:100,60s:500,30s:0";
  const auto plan = make_run_config(options).plan;
  EXPECT_EQ(plan.users, 500U);
  EXPECT_EQ(plan.duration, std::chrono::minutes(2));
  EXPECT_EQ(plan.rounds_per_user, 0U);
  ASSERT_EQ(plan.stages.size(), 3U);
  EXPECT_EQ(plan.stages[1].target, 500U);
  options.stages.clear();
  options.ramp = "20s";
  EXPECT_EQ(make_run_config(options).plan.ramp, std::chrono::seconds(20));
}

TEST(MakeRunConfig, RateStagesSetThePeakRateAndKeepTheCap) {
  Options options;
  options.url = "http://h/";
  options.users = 40;
  options.stages = "1s:300/s,2s:100/s";
  const auto plan = make_run_config(options).plan;
  EXPECT_EQ(plan.rate, 300);
  EXPECT_EQ(plan.users, 40U);
  EXPECT_EQ(plan.duration, std::chrono::seconds(3));
  EXPECT_EQ(plan.rounds_per_user, 0U);
}

TEST(MakeRunConfig, IntervalKeepsItsMicroseconds) {
  Options options;
  options.url = "http://h/";
  options.interval_s = 0.0025;
  EXPECT_EQ(make_run_config(options).plan.interval, std::chrono::microseconds(2500));
}

/// What make_run_config() refuses `options` with; "no error" when it takes them.
std::string usage_error_of(const Options& options) {
  try {
    (void)make_run_config(options);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

/// A curl file in the test's temp dir.
std::string curl_file(const std::string& name, const std::string& text) {
  const auto path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(MakeRunConfig, CurlFileStepsWithCommandLineOverrides) {
  Options options;
  options.curl_files = {curl_file("stampede_flow.curl.txt",
                                  "curl -H 'Accept:' -H 'X-A: file' -d a=1 -m 1.5 http://h/one\n"
                                  "curl --proxy p http://h/two\n")};
  auto config = make_run_config(options);
  ASSERT_EQ(config.steps.size(), 2U);
  EXPECT_EQ(config.steps.at(0).target, "/one");
  EXPECT_EQ(config.steps.at(0).method, "POST");
  EXPECT_EQ(config.steps.at(0).max_time, std::chrono::milliseconds(1500));  // the file's -m
  EXPECT_EQ(config.steps.at(1).max_time, std::chrono::milliseconds(0));
  ASSERT_EQ(config.warnings.size(), 1U);
  EXPECT_NE(config.warnings[0].find("--proxy is not applied"), std::string::npos);

  options.url = "http://other:8080/x";
  options.headers = {"x-a: flag", "Accept: text/plain", "X-B: 2"};
  options.data = "z";
  options.has_data = true;
  options.method = "PUT";
  options.keep_alive = true;
  options.has_request_timeout = true;
  config = make_run_config(options);
  const auto& r = config.steps.at(0);
  EXPECT_EQ(r.origin.host, "other");  // -u moves a flow to its server; each step keeps its path
  EXPECT_EQ(r.origin.port, 8080);
  EXPECT_EQ(r.target, "/one");
  EXPECT_EQ(config.steps.at(1).origin.host, "other");
  EXPECT_EQ(config.steps.at(1).target, "/two");
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
  EXPECT_EQ(r.max_time, std::chrono::milliseconds(0));  // -t wins over the file's -m
  EXPECT_EQ(config.plan.request_timeout, std::chrono::seconds(30));
}

TEST(MakeRunConfig, UOnASingleCurlRequestReplacesTheWholeUrl) {
  Options options;
  options.curl_files = {curl_file("stampede_one.curl.txt", "curl http://h/one\n")};
  options.url = "https://other/x?y=1";
  const auto config = make_run_config(options);
  ASSERT_EQ(config.steps.size(), 1U);
  EXPECT_EQ(config.steps.at(0).origin.scheme, model::Scheme::https);
  EXPECT_EQ(config.steps.at(0).origin.host, "other");
  EXPECT_EQ(config.steps.at(0).target, "/x?y=1");
}

TEST(MakeRunConfig, Http2FlagAsksForHttp2WithoutUpgradeOnEveryStep) {
  Options options;
  options.url = "http://h/";
  options.http2 = true;
  EXPECT_EQ(make_run_config(options).steps.at(0).http_version,
            model::HttpVersion::http2_prior_knowledge);
  options.url.clear();
  options.curl_files = {
      curl_file("stampede_h2.curl.txt", "curl --http1.1 http://h/a\ncurl http://h/b\n")};
  const auto config = make_run_config(options);
  for (const auto& step : config.steps) {
    EXPECT_EQ(step.http_version, model::HttpVersion::http2_prior_knowledge) << step.target;
  }
  EXPECT_TRUE(config.warnings.empty());  // no "without Upgrade" note: nothing asks for one
}

TEST(MakeRunConfig, BadCurlFileIsAUsageErrorWithItsPlace) {
  Options options;
  options.curl_files = {curl_file("stampede_bad.curl.txt", "curl \\\n  -H 'X")};
  try {
    (void)make_run_config(options);
    FAIL() << "no error";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              options.curl_files[0] + ":2:6: unterminated single quote (')");
  }
}

TEST(MakeRunConfig, CaptureFlagsGoToTheOneRequest) {
  Options options;
  options.url = "http://h/list?after=${cursor}";
  options.captures = {"cursor = json /next", "etag = header ETag"};
  const auto config = make_run_config(options);
  ASSERT_EQ(config.steps.at(0).captures.size(), 2U);
  EXPECT_EQ(config.steps[0].captures[1].path, "etag");
  options.captures = {"cursor = json next"};
  EXPECT_EQ(usage_error_of(options).substr(0, 39), "--capture: 'next' is not a JSON Pointer");
  options.captures = {"uuid = json /next"};
  EXPECT_EQ(usage_error_of(options),
            "capture: ${uuid} is a variable stampede gives; name the capture otherwise");
  options.url = "ws://h/";  // a reply's JSON may be captured, not its headers: it has none
  options.data = "hi";
  options.has_data = true;
  options.captures = {"cursor = json /next"};
  EXPECT_EQ(make_run_config(options).steps[0].captures.size(), 1u);
  options.captures = {"cursor = header X-Next"};
  EXPECT_EQ(usage_error_of(options),
            "capture: a WebSocket reply is a message, without headers (capture from it with json "
            "or body)");
  Options flow;
  flow.curl_files = {
      curl_file("stampede_capture_flow.curl.txt", "curl http://h/a\ncurl 'http://h/b?t=${t}'")};
  flow.captures = {"t = json /t"};
  EXPECT_EQ(usage_error_of(flow).substr(0, 43), "--capture applies to a run of one request; ");
  flow.captures.clear();
  EXPECT_EQ(usage_error_of(flow).substr(0, 36), "step 2's URL: unknown variable ${t} ");
}

TEST(MakeRunConfig, AMixsFlowsUseOnlyWhatTheyCaptureThemselves) {
  Options mix;
  const auto login = curl_file("stampede_mix_login.curl.txt",
                               "# stampede: capture t = json /t\ncurl http://h/login\n"
                               "curl 'http://h/a?t=${t}'\n");
  mix.curl_files = {login + ":3", curl_file("stampede_mix_other.curl.txt", "curl http://h/b\n")};
  const auto config = make_run_config(mix);
  ASSERT_EQ(config.plan.mix.size(), 2U);
  EXPECT_EQ(config.plan.mix[0], (model::FlowShare{login, 0, 2, 3}));
  EXPECT_EQ(config.plan.mix[1].first, 2U);
  EXPECT_EQ(config.plan.mix[1].weight, 1U);
  mix.curl_files[1] = curl_file("stampede_mix_user.curl.txt", "curl 'http://h/b?t=${t}'\n");
  EXPECT_EQ(usage_error_of(mix).substr(0, 36), "step 3's URL: unknown variable ${t} ");
}

/// The bytes a run with these -u and -H flags would send.
std::string sent(const std::string& url, std::vector<std::string> headers) {
  Options options;
  options.url = url;
  options.headers = std::move(headers);
  return client::printable(
      client::prepare(make_run_config(options).steps.at(0), model::Protocol::http1));
}

TEST(MakeRunConfig, HeaderFlagsAsCurlReadsThem) {
  // `Name:` drops the default header, `Name;` sends an empty value, later -H win.
  EXPECT_EQ(sent("http://h/", {"Accept:", "X-E;", "User-Agent: ua", "X-A: 1", "X-A:"}),
            "GET / HTTP/1.1\r\nHost: h\r\nX-E: \r\nUser-Agent: ua\r\n"
            "Connection: close\r\n\r\n");
  EXPECT_EQ(sent("http://h/", {"Accept:", "accept: a/b", "Host: other:81"}),
            "GET / HTTP/1.1\r\nUser-Agent: stampede/0.1.0\r\naccept: a/b\r\n"
            "Host: other:81\r\nConnection: close\r\n\r\n");
}

TEST(MakeRunConfig, UserinfoInTheUrlIsSentAsBasicAuth) {
  // As curl: `Authorization: Basic base64(user:password)`, unless -H gives or drops one.
  const auto basic = "Authorization: Basic dTpwQHNz\r\n";  // u:p@ss
  EXPECT_NE(sent("http://u:p%40ss@h/", {}).find(basic), std::string::npos);
  EXPECT_EQ(sent("http://u:p%40ss@h/", {}).find("u:p"), std::string::npos);
  EXPECT_NE(sent("http://u@h/", {}).find("Authorization: Basic dTo=\r\n"), std::string::npos);
  EXPECT_NE(sent("http://u:p@h/", {"authorization: Bearer t"}).find("authorization: Bearer t"),
            std::string::npos);
  EXPECT_EQ(sent("http://u:p@h/", {"authorization: Bearer t"}).find("Basic"), std::string::npos);
  EXPECT_EQ(sent("http://u:p@h/", {"Authorization:"}).find("Authorization"), std::string::npos);
  Options options;  // a curl file's step gets the credentials of -u too
  options.curl_files = {curl_file("stampede_auth.curl.txt", "curl http://h/a\ncurl http://h/b\n")};
  options.url = "http://u:p%40ss@other/";
  for (const auto& step : make_run_config(options).steps) {
    EXPECT_NE(client::printable(client::prepare(step, model::Protocol::http1)).find(basic),
              std::string::npos)
        << step.target;
  }
}

TEST(MakeRunConfig, HeadersThatWouldNotBeOneHeaderAreRefused) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"X: a\r\nInjected: 1",
       "bad header 'X: a...': it contains a line break, which would start another header"},
      {"X: a\nInjected: 1",
       "bad header 'X: a...': it contains a line break, which would start another header"},
      {std::string("X: a\0b", 6), "bad header 'X: a...': it contains a NUL byte"},
      {"X Y: 1", "bad header 'X Y: 1': a header name is one word (use -H 'Name: value')"},
      {": 1", "bad header ': 1': a header name is one word (use -H 'Name: value')"},
      {"no colon here",
       "bad header 'no colon here': no ':' (use -H 'Name: value'; 'Name;' sends an empty value, "
       "'Name:' drops a default header)"},
      {"Host:",
       "bad header 'Host:': HTTP/1.1 requires a Host header naming the server (RFC 9112 3.2); "
       "give one, or leave -H Host out to send the URL's"},
      {"host;",
       "bad header 'host;': HTTP/1.1 requires a Host header naming the server (RFC 9112 "
       "3.2); give one, or leave -H Host out to send the URL's"},
      {"Content-Length: 5",
       "bad header 'Content-Length: 5': stampede frames the body itself (-data sets its length)"},
      {"transfer-encoding: chunked",
       "bad header 'transfer-encoding: chunked': stampede frames "
       "the body itself (-data sets its length)"},
  };
  Options options;
  options.url = "http://h/";
  for (const auto& [header, message] : cases) {
    options.headers = {header};
    EXPECT_EQ(usage_error_of(options), message);
  }
  options.url.clear();  // and over a curl file's steps
  options.curl_files = {curl_file("stampede_hdr.curl.txt", "curl http://h/a\n")};
  options.headers = {"Host:"};
  EXPECT_NE(usage_error_of(options).find("requires a Host"), std::string::npos);
}

TEST(MakeRunConfig, MalformedPortIsRefused) {
  Options options;
  options.url = "http://127.0.0.1:18200abc/";
  EXPECT_EQ(usage_error_of(options), "bad port in URL 'http://127.0.0.1:18200abc/' (use 1-65535)");
}

TEST(MakeRunConfig, DataFromADirectoryIsRefused) {
  Options options;
  options.url = "http://h/";
  options.data = "@" + testing::TempDir();
  options.has_data = true;
  EXPECT_EQ(usage_error_of(options), "-data " + options.data + ": '" + testing::TempDir() +
                                         "' is a directory (name a file after @)");
  options.data = "@/dev/zero";  // would never end
  EXPECT_EQ(usage_error_of(options), "cannot read -data file '/dev/zero' (check the path after @)");
}

TEST(MakeRunConfig, WebSocketFlagsReachTheRequestAndThePlan) {
  Options options;
  options.url = "wss://h/chat";
  options.binary = true;
  options.max_message = 4096;
  options.hold_s = 2.5;
  options.ping_s = 0.5;
  auto config = make_run_config(options);
  EXPECT_TRUE(config.steps.at(0).binary);
  EXPECT_EQ(config.steps.at(0).max_message, 4096U);
  EXPECT_EQ(config.plan.hold, std::chrono::milliseconds(2500));
  EXPECT_EQ(config.plan.ping, std::chrono::milliseconds(500));
  options.hold_s = Options::hold_forever;  // --hold alone: until the run is stopped
  config = make_run_config(options);
  EXPECT_EQ(config.plan.hold, std::chrono::milliseconds::max());
  options.hold_s = 0;
  options.ping_s = 0;
  config = make_run_config(options);
  EXPECT_EQ(config.plan.hold, std::chrono::milliseconds(0));
  EXPECT_EQ(config.plan.ping, std::chrono::milliseconds(0));
}

TEST(MakeRunConfig, HoldAndPingNeedAWebSocketUrlOrHttp2) {
  const std::string hold =
      "--hold needs a ws:// or wss:// URL, or -http2 (it holds WebSocket or HTTP/2 connections "
      "open; HTTP/1.1 has none to hold)";
  Options options;
  options.url = "http://h/";
  options.hold_s = 60;
  EXPECT_EQ(usage_error_of(options), hold);
  options.hold_s = Options::hold_forever;
  EXPECT_EQ(usage_error_of(options), hold);
  options.url = "https://h/";
  EXPECT_EQ(usage_error_of(options), hold);
  options.hold_s = 0;
  options.ping_s = 1;
  EXPECT_EQ(
      usage_error_of(options),
      "--ping needs a ws:// or wss:// URL, or -http2 with --hold (it pings held connections)");
  options.listen = true;
  options.ping_s = 0;
  EXPECT_EQ(usage_error_of(options),
            "--listen needs a ws:// or wss:// URL (it counts what a WebSocket server pushes)");
  options.listen = false;
  options.ping_s = 1;
  options.url = "ws://h/";  // WebSocket pings with or without --hold
  EXPECT_EQ(usage_error_of(options), "no error");
}

TEST(MakeRunConfig, SharedConnectionsNeedHttp2AndNoHold) {
  Options options;
  options.url = "http://h/";
  options.connections = 4;
  EXPECT_EQ(usage_error_of(options),
            "-m needs -http2 (the users share HTTP/2 connections; over HTTP/1.1 each user keeps "
            "its own)");
  options.http2 = true;
  EXPECT_EQ(usage_error_of(options), "no error");
  EXPECT_EQ(make_run_config(options).plan.connections, 4u);
  options.hold_s = 10;
  EXPECT_EQ(usage_error_of(options),
            "-m with --hold: held HTTP/2 connections are each user's own (drop -m)");
}

TEST(MakeRunConfig, Http2HoldsWithHoldAloneAndKeepsItsConnectionAsWithK) {
  Options options;
  options.url = "http://h/";
  options.http2 = true;
  options.hold_s = 30;
  options.ping_s = 5;
  const auto config = make_run_config(options);
  EXPECT_TRUE(config.long_lived);              // the connection columns and report
  EXPECT_TRUE(config.steps.at(0).keep_alive);  // without -k: one connection to hold
  EXPECT_EQ(config.plan.hold, std::chrono::milliseconds(30000));
  EXPECT_EQ(config.plan.ping, std::chrono::milliseconds(5000));
  options.hold_s = 0;  // no hold: -http2 is request-response, a connection per request
  EXPECT_EQ(usage_error_of(options),
            "--ping with -http2 needs --hold (held HTTP/2 connections are pinged)");
  options.ping_s = 0;
  const auto unheld = make_run_config(options);
  EXPECT_FALSE(unheld.long_lived);
  EXPECT_FALSE(unheld.steps.at(0).keep_alive);
  options.listen = true;
  options.hold_s = 30;
  EXPECT_EQ(usage_error_of(options),
            "--listen needs a ws:// or wss:// URL (it counts what a WebSocket server pushes)");
}

TEST(MakeRunConfig, AFlowHoldsItsHttp2StepsOnly) {
  // Per step, as curl decides: --http2-prior-knowledge is HTTP/2, --http1.1 stays HTTP/1.1.
  Options options;
  options.hold_s = 2;
  options.curl_files = {
      curl_file("stampede_hold.curl.txt",
                "curl --http1.1 http://h/a\ncurl --http2-prior-knowledge http://h/b\n")};
  const auto config = make_run_config(options);
  EXPECT_TRUE(config.long_lived);
  EXPECT_FALSE(config.steps.at(0).keep_alive);
  EXPECT_TRUE(config.steps.at(1).keep_alive);
  // curl's --http2 on http:// asks for h2c by upgrade: a connection to hold once it switches.
  options.curl_files = {curl_file("stampede_upgrade.curl.txt", "curl --http2 http://h/a\n")};
  EXPECT_TRUE(make_run_config(options).steps.at(0).keep_alive);
  options.curl_files = {curl_file("stampede_nohold.curl.txt", "curl --http1.1 http://h/a\n")};
  EXPECT_NE(usage_error_of(options).find("--hold needs"), std::string::npos);
}

TEST(MakeRunConfig, Http2WithAWebSocketUrlIsRefused) {
  Options options;
  options.url = "ws://h/";
  options.http2 = true;
  EXPECT_EQ(usage_error_of(options),
            "-http2 with a ws:// URL (WebSocket goes by HTTP/1.1's upgrade; drop -http2)");
  options.url = "wss://h/";
  EXPECT_EQ(usage_error_of(options),
            "-http2 with a wss:// URL (WebSocket goes by HTTP/1.1's upgrade; drop -http2)");
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

TEST(MakeRunConfig, AnEnvironmentValueCannotAddALineToTheRequest) {
  ::setenv("STAMPEDE_RUN_CONFIG_EVIL", "a\r\nX-Injected: 1", 1);
  ::setenv("STAMPEDE_RUN_CONFIG_SPACE", "x HTTP/1.0", 1);
  Options options;
  options.url = "http://h/";
  options.headers = {"X-A: ${env:STAMPEDE_RUN_CONFIG_EVIL}"};
  EXPECT_EQ(usage_error_of(options),
            "X-A: a ${env:...} value holds a line break or a NUL, which would add a line to the "
            "request or split one");
  options.headers = {};
  options.url = "http://h/${env:STAMPEDE_RUN_CONFIG_SPACE}";
  EXPECT_EQ(usage_error_of(options),
            "URL: a ${env:...} value holds a line break, a NUL or a space, which would add a line "
            "to the request or split one");
  options.data = "${env:STAMPEDE_RUN_CONFIG_EVIL}";  // a body is sent as it is
  options.has_data = true;
  options.url = "http://h/";
  EXPECT_EQ(usage_error_of(options), "no error");
}

}  // namespace
}  // namespace stampede::cmd
