// JSON report: parses, every documented field is there and matches known numbers, never null.
#include "report/json_report.hpp"
#include "tests/report/results.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace stampede::report {

using statistics::Metrics;
using statistics::Second;
using statistics::StopReason;
using statistics::Summary;
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// 500 requests at 1 ms and 500 at 3 ms (first on a new 0.5 ms connection), 2 timeouts, 2 s.
Summary sample() {
  Summary s;
  s.info = {{model::Scheme::https, "example.test", 8443}, "/api?q=1", 10, 100, 2, true,
            {"GET https://example.test:8443/api?q=1"}};
  Metrics second;
  for (int i = 0; i < 1000; ++i) {
    model::Result r = result(i % 2 == 0 ? 1ms : 3ms, model::ErrorKind::none, i < 990 ? 200 : 503);
    r.new_connection = i < 10;
    r.connect = r.new_connection ? 500us : 0us;
    r.waiting = r.latency - 100us;
    r.bytes_received = 300;
    r.body_bytes = 100;
    r.bytes_sent = 80;
    r.keep_alive = true;
    s.total.add(r);
    second.add(r);
  }
  s.total.add(result(1s, model::ErrorKind::timeout, 0));
  s.total.add(result(1s, model::ErrorKind::timeout, 0));
  s.total.note_server("nginx");
  s.add_second(second, 1s, 10);
  s.elapsed = 2s;
  s.abandoned = 3;
  s.users_started = 9;
  s.stop_reason = StopReason::time_limit;
  return s;
}

// True when no value anywhere in `value` is null (nlohmann writes nan and inf as null).
bool has_no_null(const json& value) {
  if (value.is_null()) {
    return false;
  }
  if (!value.is_structured()) {
    return true;
  }
  return std::all_of(value.begin(), value.end(),
                     [](const json& child) { return has_no_null(child); });
}

TEST(JsonReport, TopLevelCounts) {
  const std::string text = json_report(sample());
  const json report = json::parse(text);
  EXPECT_EQ(report["requests"]["total"], 1002);
  EXPECT_EQ(report["requests"]["succeeded"], 1000);
  EXPECT_EQ(report["requests"]["failed"], 2);
  EXPECT_EQ(report["requests"]["abandoned"], 3);
  EXPECT_EQ(report["users_started"], 9);
  EXPECT_DOUBLE_EQ(report["duration_s"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(report["rps"].get<double>(), 501.0);
  EXPECT_EQ(report["users"], 10);
  EXPECT_EQ(report["stop_reason"], "time_limit");
  EXPECT_EQ(text.substr(0, 17), "{\n  \"requests\": {");  // 2-space indent, fixed order
  EXPECT_EQ(text.back(), '\n');
}

TEST(JsonReport, LatencyInMilliseconds) {
  const json latency = json::parse(json_report(sample()))["latency_ms"];
  EXPECT_DOUBLE_EQ(latency["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(latency["mean"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(latency["stdev"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(latency["max"].get<double>(), 3.0);
  EXPECT_GE(latency["p50"].get<double>(), 1.0);  // the 500th of 1000 is a 1 ms request
  EXPECT_LE(latency["p50"].get<double>(), 1.008);
  for (const char* key : {"p90", "p95", "p99", "p999"}) {
    EXPECT_DOUBLE_EQ(latency[key].get<double>(), 3.0) << key;
  }
}

TEST(JsonReport, Phases) {
  const json phases = json::parse(json_report(sample()))["phases_ms"];
  for (const char* phase : {"connect", "waiting", "total"}) {
    for (const char* key : {"min", "mean", "max", "p50", "p99"}) {
      EXPECT_TRUE(phases[phase][key].is_number()) << phase << '.' << key;
    }
  }
  EXPECT_DOUBLE_EQ(phases["connect"]["mean"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(phases["connect"]["p99"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(phases["waiting"]["min"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(phases["waiting"]["mean"].get<double>(), 1.9);
  EXPECT_DOUBLE_EQ(phases["total"]["max"].get<double>(), 3.0);
}

TEST(JsonReport, CodesErrorsBytesAndServer) {
  const json report = json::parse(json_report(sample()));
  EXPECT_EQ(report["status_codes"], json({{"200", 990}, {"503", 10}}));
  EXPECT_EQ(report["errors"], json({{"connect", 0},
                                    {"timeout", 2},
                                    {"read", 0},
                                    {"write", 0},
                                    {"protocol", 0},
                                    {"tls", 0},
                                    {"verify", 0},
                                    {"handshake", 0},
                                    {"closed", 0},
                                    {"too_big", 0},
                                    {"capture", 0},
                                    {"unsafe", 0}}));
  EXPECT_EQ(report["bytes"],
            json({{"received", 300000}, {"body_received", 100000}, {"sent", 80000}}));
  EXPECT_EQ(report["connections"]["opened"], 10);
  EXPECT_EQ(report["keep_alive_requests"], 1000);
  EXPECT_EQ(report["server"]["software"], "nginx");
  EXPECT_EQ(report["server"]["host"], "example.test");
  EXPECT_EQ(report["server"]["port"], 8443);
  EXPECT_EQ(report["server"]["path"], "/api?q=1");
  EXPECT_EQ(report["server"]["document_length"], 100);
}

TEST(JsonReport, ServerBytesThatAreNotUtf8DoNotLoseTheReport) {
  Summary s = sample();
  s.total.note_server("evil\xff\xfe\x1b[2J");  // not UTF-8, and a terminal escape
  s.total.note_server("evil\xff\xfe\x1b[2J");  // the most frequent now
  std::string text;
  ASSERT_NO_THROW(text = json_report(s));
  const json report = json::parse(text);  // throws on invalid UTF-8 too
  EXPECT_EQ(report["server"]["software"], "evil\uFFFD\uFFFD\x1b[2J");  // U+FFFD, each byte
  EXPECT_NE(text.find(R"(\u001b[2J")"), std::string::npos) << "the escape is written escaped";
}

TEST(JsonReport, PerSecondRows) {
  const json rows = json::parse(json_report(sample()))["per_second"];
  ASSERT_EQ(rows.size(), 1u);
  const json& row = rows[0];
  EXPECT_DOUBLE_EQ(row["elapsed_s"].get<double>(), 1.0);
  EXPECT_EQ(row["users_running"], 10);
  EXPECT_EQ(row["succeeded"], 1000);
  EXPECT_EQ(row["failed"], 0);
  EXPECT_DOUBLE_EQ(row["rps"].get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ(row["latency_ms"]["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(row["latency_ms"]["mean"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(row["latency_ms"]["max"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(row["latency_ms"]["p99"].get<double>(), 3.0);
  EXPECT_EQ(row["status_codes"], json({{"200", 990}, {"503", 10}}));
}

TEST(JsonReport, EmptyRunHasZerosNotNulls) {
  const std::string text = json_report(Summary{});
  const json report = json::parse(text);
  EXPECT_TRUE(has_no_null(report)) << text;
  EXPECT_EQ(text.find("null"), std::string::npos);
  EXPECT_EQ(report["rps"], 0.0);
  EXPECT_EQ(report["latency_ms"]["p999"], 0.0);
  EXPECT_TRUE(report["per_second"].is_array());
  EXPECT_TRUE(report["per_second"].empty());
  EXPECT_TRUE(report["status_codes"].is_object());
  EXPECT_EQ(report["errors"].size(), model::failure_kinds.size());
  EXPECT_EQ(report["stop_reason"], "completed");
}

TEST(JsonReport, ASingleRequestIsOneStepWithTheTotals) {
  const json report = json::parse(json_report(sample()));
  ASSERT_EQ(report["steps"].size(), 1U);
  const json& step = report["steps"][0];
  EXPECT_EQ(step["step"], 1);
  EXPECT_EQ(step["request"], "GET https://example.test:8443/api?q=1");
  EXPECT_EQ(step["requests"]["total"], 1002);
  EXPECT_EQ(step["requests"]["failed"], report["requests"]["failed"]);
  EXPECT_EQ(step["latency_ms"], report["latency_ms"]);
  EXPECT_EQ(step["status_codes"], report["status_codes"]);
  EXPECT_EQ(step["errors"], report["errors"]);
}

TEST(JsonReport, AFlowHasOneObjectPerStep) {
  Summary s = sample();
  s.info.steps = {"POST http://a/login", "GET http://a/cart"};
  s.steps.resize(2);
  s.steps[0].add(result(2ms, model::ErrorKind::none, 200));
  s.steps[1].add(result(4ms, model::ErrorKind::verify, 500));
  s.steps[1].add(result(1s, model::ErrorKind::timeout, 0));
  const json report = json::parse(json_report(s));
  ASSERT_EQ(report["steps"].size(), 2U);
  EXPECT_EQ(report["steps"][0]["request"], "POST http://a/login");
  EXPECT_EQ(report["steps"][0]["requests"]["succeeded"], 1);
  EXPECT_DOUBLE_EQ(report["steps"][0]["latency_ms"]["max"].get<double>(), 2.0);
  EXPECT_EQ(report["steps"][1]["step"], 2);
  EXPECT_EQ(report["steps"][1]["requests"]["total"], 2);
  EXPECT_EQ(report["steps"][1]["requests"]["failed"], 2);
  EXPECT_EQ(report["steps"][1]["status_codes"]["500"], 1);
  EXPECT_EQ(report["steps"][1]["errors"]["timeout"], 1);
  EXPECT_EQ(report["steps"][1]["errors"]["verify"], 1);
}

TEST(JsonReport, AnHttpRunsConnectionsAreOnlyHowManyOpened) {
  EXPECT_EQ(json::parse(json_report(sample()))["connections"],
            json({{"opened", 10}, {"protocols", json::object()}}));
}

TEST(JsonReport, ConnectionsByWhatTheySpeak) {
  Summary s = sample();
  for (const auto negotiated :
       {model::Negotiated::h2, model::Negotiated::h2, model::Negotiated::http1}) {
    model::Result r;
    r.status = 200;
    r.new_connection = true;
    r.negotiated = negotiated;
    s.total.add(r);
  }
  EXPECT_EQ(json::parse(json_report(s))["connections"]["protocols"],
            json({{"h2", 2}, {"http/1.1", 1}}));
}

// -m: 4 requests as streams on shared connections, 1 to 3 open at once, 2 of them queued.
TEST(JsonReport, SharedConnectionsSayHowManyStreamsTheyCarriedAndTheQueueing) {
  Summary s = sample();
  EXPECT_FALSE(json::parse(json_report(s))["phases_ms"].contains("queueing"));
  for (std::uint32_t open : {1U, 2U, 3U, 2U}) {
    model::Result r;
    r.status = 200;
    r.streams_open = open;
    r.queueing = std::chrono::microseconds(open > 2 ? 400 : open == 2 ? 100 : 0);
    s.total.add(r);
  }
  const json report = json::parse(json_report(s));
  EXPECT_EQ(report["connections"]["shared_streams"],
            json({{"streams", 4}, {"open_mean", 2.0}, {"open_max", 3}}));
  EXPECT_DOUBLE_EQ(report["phases_ms"]["queueing"]["max"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(report["phases_ms"]["queueing"]["min"].get<double>(), 0.0);
}

// --digest: the round trip to the 401 of each answered request, apart from the total.
TEST(JsonReport, DigestsChallengeRoundTripOnlyWhenSomeWasAnswered) {
  Summary s = sample();
  EXPECT_FALSE(json::parse(json_report(s))["phases_ms"].contains("challenge"));
  for (const int us : {300, 500}) {
    model::Result r;
    r.status = 200;
    r.challenge = std::chrono::microseconds(us);
    s.total.add(r);
  }
  const json report = json::parse(json_report(s));
  EXPECT_DOUBLE_EQ(report["phases_ms"]["challenge"]["min"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(report["phases_ms"]["challenge"]["max"].get<double>(), 0.5);
}

TEST(JsonReport, GrpcCallsByCodeNameOnlyWhenThereAreSome) {
  Summary s = sample();
  EXPECT_FALSE(json::parse(json_report(s)).contains("grpc_status_codes"));
  for (const int code : {0, 4, 4}) {
    model::Result r;
    r.status = 200;
    r.grpc_status = code;
    s.total.add(r);
  }
  EXPECT_EQ(json::parse(json_report(s))["grpc_status_codes"],
            json({{"OK", 1}, {"DEADLINE_EXCEEDED", 2}}));
}

// A WebSocket run: 5 connections opened, 2 of them ended (1 closed by the server), 2 upgrades
// refused and 1 connection lost to a timeout.
TEST(JsonReport, LongLivedConnectionsSayWhatBecameOfThem) {
  Summary s;
  Metrics second;
  for (int i = 1; i <= 5; ++i) second.add_connection({}, std::chrono::milliseconds(300 * i));
  second.long_lived.ended = 2;
  second.long_lived.closed_by_server = 1;
  second.long_lived.fail(model::ErrorKind::handshake);
  second.long_lived.fail(model::ErrorKind::handshake);
  second.long_lived.fail(model::ErrorKind::timeout);
  model::Result message;
  message.bytes_received = 2500;
  second.add(message);
  s.total.merge(second);
  s.resident_at_start = 1000;
  s.add_second(second, 2s, 5, 9000);
  const json connections = json::parse(json_report(s))["connections"];
  const json expected = {{"opened", 5},
                         {"protocols", json::object()},
                         {"open_at_end", 3},
                         {"last_opened_s", 1.5},
                         {"closed_by_server", 1},
                         {"close_codes", json::object()},
                         {"failed", 3},
                         {"failed_by_kind", {{"handshake", 2}, {"timeout", 1}}},
                         {"resident_bytes_at_start", 1000},
                         {"per_second", json::array({{{"elapsed_s", 2.0},
                                                      {"open", 3},
                                                      {"opened", 5},
                                                      {"failed", 3},
                                                      {"closed_by_server", 1},
                                                      {"received_bytes_per_s", 1250},
                                                      {"resident_bytes", 9000}}})}};
  EXPECT_EQ(connections, expected) << connections.dump(2);
}

TEST(JsonReport, ShardsHeldMissingAndHowTheyStarted) {
  auto s = sample();
  const std::chrono::system_clock::time_point at(1'764'640'000s);
  s.sharding =
      statistics::Sharding{"3fa1c2d9e0b4",
                           3,
                           {{0, at + 2ms, at, StopReason::duration, 41500us},
                            {2, at + 500us, std::nullopt, StopReason::interrupted, std::nullopt}}};
  const json shards = json::parse(json_report(s))["shards"];
  const json expected = {
      {"run", "3fa1c2d9e0b4"},
      {"count", 3},
      {"held",
       {{{"index", 0}, {"skew_ms", 2.0}, {"stop_reason", "duration"}, {"clock_offset_ms", 41.5}},
        {{"index", 2},
         {"skew_ms", nullptr},
         {"stop_reason", "interrupted"},
         {"clock_offset_ms", nullptr}}}},
      {"missing", {1}},
      {"start_spread_ms", 1.5}};
  EXPECT_EQ(shards, expected) << shards.dump(2);
}

TEST(JsonReport, NonFiniteSecondsBecomeZero) {
  Summary s;
  Second broken;
  broken.rps = std::numeric_limits<double>::infinity();
  broken.mean_ms = std::numeric_limits<double>::quiet_NaN();
  s.per_second.push_back(broken);
  const json report = json::parse(json_report(s));
  EXPECT_TRUE(has_no_null(report));
  EXPECT_EQ(report["per_second"][0]["rps"], 0.0);
  EXPECT_EQ(report["per_second"][0]["latency_ms"]["mean"], 0.0);
}

}  // namespace
}  // namespace stampede::report
