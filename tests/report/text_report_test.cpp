// Text report: go-stress-testing's closing block and ApacheBench's layout, with known numbers.
#include "report/text_report.hpp"
#include "tests/report/results.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

namespace stampede::report {

using statistics::StopReason;
using statistics::Summary;
namespace {

using namespace std::chrono_literals;

// Each request opens a connection (2 ms), waits 7 ms for the first byte and takes 10 ms in all.
model::Result timed_success() {
  model::Result r = result(10ms, model::ErrorKind::none, 200);
  r.new_connection = true;
  r.connect = 2ms;
  r.waiting = 7ms;
  r.bytes_received = 1024;
  r.body_bytes = 615;
  r.bytes_sent = 512;
  return r;
}

// 1000 identical requests from 10 users over 2 s, against nginx on 127.0.0.1:8080.
Summary thousand_in_two_seconds() {
  Summary s;
  s.info = {{model::Scheme::http, "127.0.0.1", 8080}, "/index.html", 10, 100, 2, false,
            {"GET http://127.0.0.1:8080/index.html"}};
  for (int i = 0; i < 1000; ++i) {
    s.total.add(timed_success());
  }
  s.total.note_server("nginx/1.22.1");
  s.elapsed = 2s;
  s.users_started = 10;
  return s;
}

// The number after `label` on its line.
double value_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  return at == std::string::npos ? -1 : std::strtod(text.c_str() + at + label.size(), nullptr);
}

TEST(TextReport, AbRatesFromCompletedAndElapsed) {
  const std::string text = text_report(thousand_in_two_seconds());
  EXPECT_TRUE(contains(text, "Concurrency Level:      10\n")) << text;
  EXPECT_TRUE(contains(text, "Time taken for tests:   2.000 seconds\n"));
  EXPECT_TRUE(contains(text, "Complete requests:      1000\n"));
  EXPECT_TRUE(contains(text, "Failed requests:        0\n"));
  EXPECT_TRUE(contains(text, "Requests per second:    500.00 [#/sec] (mean)\n"));
  EXPECT_TRUE(contains(text, "Time per request:       20.000 [ms] (mean)\n"));  // 10 * 2 s / 1000
  EXPECT_TRUE(contains(
      text, "Time per request:       2.000 [ms] (mean, across all concurrent requests)\n"));
  EXPECT_TRUE(contains(text, "Transfer rate:          500.00 [Kbytes/sec] received\n"));
  EXPECT_TRUE(contains(text, "                        250.00 kb/s sent\n"));
  EXPECT_TRUE(contains(text, "                        750.00 kb/s total\n"));
  EXPECT_FALSE(contains(text, "Non-2xx"));
  EXPECT_FALSE(contains(text, "Keep-Alive requests"));  // not asked for, none seen
  EXPECT_FALSE(contains(text, "Stopped early"));
}

TEST(TextReport, AbServerAndTransferLines) {
  const std::string text = text_report(thousand_in_two_seconds());
  EXPECT_TRUE(contains(text,
                       "\nServer Software:        nginx/1.22.1\n"
                       "Server Hostname:        127.0.0.1\n"
                       "Server Port:            8080\n\n"
                       "Document Path:          /index.html\n"
                       "Document Length:        615 bytes\n\n"))
      << text;
  EXPECT_TRUE(contains(text, "Total transferred:      1024000 bytes\n"));
  EXPECT_TRUE(contains(text, "Total sent:             512000 bytes\n"));
  EXPECT_TRUE(contains(text, "HTML transferred:       615000 bytes\n"));
  EXPECT_TRUE(contains(text, "Status codes:           200:1000\n"));
}

TEST(TextReport, ServerSoftwareCannotDriveTheTerminal) {
  Summary s = thousand_in_two_seconds();
  for (int i = 0; i < 2; ++i) {  // more often than nginx/1.22.1, so it is the one printed
    s.total.note_server("evil\xff\xfe\x1b[2J\x07 \xc2\x9b caf\xc3\xa9\r");
  }
  const std::string text = text_report(s);
  EXPECT_TRUE(contains(text,
                       "\nServer Software:        "
                       "evil\\xFF\\xFE\\x1B[2J\\x07 \\xC2\\x9B caf\xc3\xa9\\x0D\n"))
      << text;
}

TEST(TextReport, ASavedRunsHostPathAndStepsCannotDriveTheTerminal) {
  // `stampede report` prints what a saved file says, which anyone may have written.
  Summary s = thousand_in_two_seconds();
  s.info.origin.host = "h\x1b[2J";
  s.info.path = std::string("/a\0b", 4);
  s.info.steps = {"GET http://h/\x1b]0;title\x07", "GET http://h/b"};
  s.steps.resize(2);
  const std::string text = text_report(s);
  EXPECT_TRUE(contains(text, "Server Hostname:        h\\x1B[2J\n")) << text;
  EXPECT_TRUE(contains(text, "Document Path:          /a\\x00b\n")) << text;
  EXPECT_TRUE(contains(text, "  GET http://h/\\x1B]0;title\\x07\n")) << text;
}

TEST(TextReport, GoStressTestingBlockWithUntruncatedPercentiles) {
  Summary s;
  s.info.users = 4;
  for (int i = 0; i < 8; ++i) {
    s.total.add(result(12'345'678ns, model::ErrorKind::none, 200));  // 12.345678 ms
  }
  s.total.add(result(5s, model::ErrorKind::timeout, 0));
  s.elapsed = 1500ms;
  const std::string text = text_report(s);
  EXPECT_EQ(text.rfind("\n*************************  result stat  ****************************\n"
                       "users: 4\n"
                       "total requests (completed): 9 elapsed: 1.500 s succeeded: 8 failed: 1\n"
                       "tp90: 12.346 ms\n"
                       "tp95: 12.346 ms\n"
                       "tp99: 12.346 ms\n"
                       "*************************  result end   ****************************\n",
                       0),
            0u)
      << text;
}

TEST(TextReport, ConnectionTimesTable) {
  const std::string text = text_report(thousand_in_two_seconds());
  EXPECT_TRUE(contains(text,
                       "\nConnection Times (ms)\n"
                       "                min  mean[+/-sd]  median      max\n"
                       "Connect:        2.0    2.0   0.0     2.0      2.0\n"
                       "Processing:     8.0    8.0   0.0     8.0      8.0\n"
                       "Waiting:        7.0    7.0   0.0     7.0      7.0\n"
                       "Total:         10.0   10.0   0.0    10.0     10.0\n"))
      << text;
}

TEST(TextReport, SharedConnectionsLineAndQueueingRow) {
  Summary s = thousand_in_two_seconds();
  EXPECT_FALSE(contains(text_report(s), "Queueing:")) << text_report(s);
  EXPECT_FALSE(contains(text_report(s), "Shared connections:"));
  for (std::uint32_t open : {4U, 5U, 6U}) {
    model::Result r = timed_success();
    r.streams_open = open;
    r.queueing = std::chrono::microseconds(open * 100);
    s.total.add(r);
  }
  const std::string text = text_report(s);
  EXPECT_TRUE(contains(text,
                       "Shared connections:     1003 opened; streams open at once on one: 5.0 "
                       "mean, 6 max\n"))
      << text;
  EXPECT_TRUE(contains(text,
                       "Processing:     8.0    8.0   0.0     8.0      8.0\n"
                       "Queueing:       0.4    0.5   0.1     0.5      0.6\n"
                       "Waiting:"))
      << text;
}

TEST(TextReport, ProtocolsWhenSomeConnectionsSpeakHttp2OrKindsDiffer) {
  Summary s = thousand_in_two_seconds();
  auto opened = [&s](model::Negotiated negotiated, int n) {
    for (int i = 0; i < n; ++i) {
      model::Result r = timed_success();
      r.negotiated = negotiated;
      s.total.add(r);
    }
  };
  opened(model::Negotiated::http1, 2);
  EXPECT_FALSE(contains(text_report(s), "Protocols:"));  // HTTP/1.1 alone: the URL says it
  opened(model::Negotiated::h2, 3);
  EXPECT_TRUE(
      contains(text_report(s), "Protocols:              http/1.1 (2 connections), h2 (3)\n"))
      << text_report(s);
}

TEST(TextReport, GrpcCallsAreCountedByCodeName) {
  Summary s = thousand_in_two_seconds();
  EXPECT_FALSE(contains(text_report(s), "gRPC status codes:"));
  for (const int code : {0, 0, 14}) {
    model::Result r = timed_success();
    r.grpc_status = code;
    s.total.add(r);
  }
  EXPECT_TRUE(contains(text_report(s), "gRPC status codes:      OK:2;UNAVAILABLE:1\n"))
      << text_report(s);
}

TEST(TextReport, PercentileTableLikeAb) {
  Summary s;
  for (int ms = 1; ms <= 1000; ++ms) {
    s.total.add(result(std::chrono::milliseconds{ms}, model::ErrorKind::none, 200));
  }
  s.elapsed = 1s;
  const std::string text = text_report(s);
  ASSERT_TRUE(contains(text, "\nPercentage of the requests served within a certain time (ms)\n"));
  // The histogram reports a bucket's top, at most 0.8% above the true value.
  const std::pair<const char*, double> expected[] = {{"\n  50%  ", 500},
                                                     {"\n  66%  ", 660},
                                                     {"\n  90%  ", 900},
                                                     {"\n  99%  ", 990},
                                                     {"\n99.9%  ", 999}};
  for (const auto& [label, ms] : expected) {
    const double shown = value_after(text, label);
    EXPECT_GE(shown, ms) << label;
    EXPECT_LE(shown, ms * 1.008) << label;
  }
  EXPECT_TRUE(contains(text, "\n 100%   1000.000 (longest request)\n")) << text;
  EXPECT_TRUE(contains(text, "\n  98%  ")) << text;
}

TEST(TextReport, FailuresBreakdownAndNon2xx) {
  Summary s = thousand_in_two_seconds();
  s.total.add(result(0ns, model::ErrorKind::connect, 0));
  s.total.add(result(30s, model::ErrorKind::timeout, 0));
  s.total.add(result(30s, model::ErrorKind::timeout, 0));
  for (int i = 0; i < 3; ++i) {
    s.total.add(result(1ms, model::ErrorKind::verify, 500));
  }
  const std::string text = text_report(s);
  EXPECT_TRUE(contains(text, "Complete requests:      1006\n")) << text;
  EXPECT_TRUE(contains(text,
                       "Failed requests:        6\n"
                       "   (connect: 1, timeout: 2, read: 0, write: 0, protocol: 0, tls: 0, "
                       "verify: 3)\n"
                       "Non-2xx responses:      3\n"
                       "Status codes:           200:1000;500:3\n"))
      << text;
}

TEST(TextReport, WebSocketKindsOnlyWhenSomeOccurred) {
  Summary s = thousand_in_two_seconds();
  s.total.add(result(0ns, model::ErrorKind::handshake, 403));
  s.total.add(result(0ns, model::ErrorKind::handshake, 403));
  s.total.add(result(1ms, model::ErrorKind::closed, 0));
  const std::string text = text_report(s);
  // too_big did not occur, so it is left out; the HTTP kinds are always there, as ab's are.
  EXPECT_TRUE(contains(text,
                       "Failed requests:        3\n"
                       "   (connect: 0, timeout: 0, read: 0, write: 0, protocol: 0, tls: 0, "
                       "verify: 0, handshake: 2, closed: 1)\n"))
      << text;
  EXPECT_TRUE(contains(text, "Status codes:           200:1000;403:2\n")) << text;
}

// Long-lived connections: what became of them, and how long opening them all took.
TEST(TextReport, LongLivedConnectionsSayWhatBecameOfThemAndWhenTheLastOpened) {
  Summary s = thousand_in_two_seconds();
  for (int i = 1; i <= 4; ++i) s.total.add_connection({}, 450ms * i);
  s.total.long_lived.ended = 1;
  s.total.long_lived.closed_by_server = 1;
  s.total.long_lived.fail(model::ErrorKind::timeout);
  EXPECT_TRUE(contains(text_report(s),
                       "Connections:            4 opened, 1 closed by the server, 1 failed "
                       "(timeout: 1), 3 open at the end\n"
                       "Last opened:            1.800 seconds after the start\n"))
      << text_report(s);
  s.total.long_lived.close_codes = {{1000, 3}, {4001, 1}};  // the server's close frames
  EXPECT_TRUE(
      contains(text_report(s), "3 open at the end\nClose codes:            1000:3;4001:1\n"))
      << text_report(s);
  EXPECT_FALSE(contains(text_report(thousand_in_two_seconds()), "Last opened:"));
}

// A WebSocket run counts messages: no empty HTTP lines (Server Software, Status codes: none,
// Keep-Alive requests), and its bytes say what they are.
TEST(TextReport, AWebSocketRunSaysWhatIsTrueOfMessages) {
  Summary s = thousand_in_two_seconds();
  s.info.protocol = model::Protocol::websocket;
  s.info.keep_alive = true;
  s.total = {};
  for (int i = 0; i < 10; ++i) {
    auto r = timed_success();
    r.status = 0;
    s.total.add(r);
  }
  const auto text = text_report(s);
  EXPECT_FALSE(contains(text, "Server Software:")) << text;
  EXPECT_FALSE(contains(text, "Status codes:")) << text;
  EXPECT_FALSE(contains(text, "Keep-Alive requests:")) << text;
  EXPECT_FALSE(contains(text, "HTML transferred:")) << text;
  EXPECT_TRUE(contains(text, "Message Length:         615 bytes\n")) << text;
  EXPECT_TRUE(
      contains(text, "Total transferred:      10240 bytes (upgrades, frames and messages)\n"))
      << text;
  EXPECT_TRUE(contains(text, "Messages transferred:   6150 bytes\n")) << text;
  // A refused upgrade has a status, and says so.
  s.total.add(result(0ns, model::ErrorKind::handshake, 403));
  EXPECT_TRUE(contains(text_report(s), "Status codes:           403:1\n")) << text_report(s);
}

// A gRPC run's bodies are length-prefixed messages, and the report says so.
TEST(TextReport, AGrpcRunsBodiesAreItsMessages) {
  Summary s = thousand_in_two_seconds();
  s.info.origin = {model::Scheme::grpc, "127.0.0.1", 50051};
  const auto text = text_report(s);
  EXPECT_TRUE(contains(text,
                       "Document Length:        615 bytes (with its messages' 5-byte gRPC "
                       "prefixes)\n"))
      << text;
  EXPECT_TRUE(contains(text, "Messages transferred:   615000 bytes (with their 5-byte prefixes)\n"))
      << text;
  EXPECT_FALSE(contains(text, "HTML transferred:")) << text;
}

// A held run lasts its hold: how fast the connections opened, not requests a second over it.
TEST(TextReport, AHeldRunGivesConnectionFiguresNotRequestsASecond) {
  Summary s = thousand_in_two_seconds();
  s.info.held = true;
  for (int i = 1; i <= 4; ++i) s.total.add_connection({}, 250ms * i);
  const auto text = text_report(s);
  EXPECT_FALSE(contains(text, "Requests per second:")) << text;
  EXPECT_FALSE(contains(text, "Time per request:")) << text;
  EXPECT_TRUE(contains(text,
                       "Opened per second:      4.00 [#/sec] (mean, from the start to the "
                       "last opened)\n"))
      << text;
  EXPECT_TRUE(contains(text, "Transfer rate:")) << text;
  s.info.held = false;
  EXPECT_TRUE(contains(text_report(s), "Requests per second:")) << text_report(s);
}

TEST(TextReport, StopReasonAndAbandonedRequests) {
  Summary s = thousand_in_two_seconds();
  s.stop_reason = StopReason::interrupted;
  s.abandoned = 12;
  EXPECT_TRUE(contains(text_report(s),
                       "Time taken for tests:   2.000 seconds\n"
                       "Stopped early:          interrupted; 12 in-flight "
                       "requests abandoned (not counted)\n"));
  s.stop_reason = StopReason::time_limit;
  EXPECT_TRUE(contains(text_report(s), "Stopped early:          time limit reached; 12 in-flight"));
}

TEST(TextReport, UsersTheStopCameBefore) {
  Summary s = thousand_in_two_seconds();
  s.stop_reason = StopReason::interrupted;
  s.abandoned = 7;
  s.users_started = 7;
  EXPECT_TRUE(contains(text_report(s),
                       "Stopped early:          interrupted; 7 in-flight requests abandoned (not "
                       "counted); 3 of 10 users had not started\n"));
}

TEST(TextReport, KeepAliveRequests) {
  Summary s = thousand_in_two_seconds();
  s.info.keep_alive = true;
  EXPECT_TRUE(contains(text_report(s), "Keep-Alive requests:    0\n"));
  model::Result reused = timed_success();
  reused.new_connection = false;
  reused.keep_alive = true;
  s.total.add(reused);
  EXPECT_TRUE(contains(text_report(s), "Keep-Alive requests:    1\n"));
}

TEST(TextReport, EmptyRunIsSane) {
  const std::string text = text_report(Summary{});
  EXPECT_FALSE(contains(text, "nan")) << text;
  EXPECT_FALSE(contains(text, "inf")) << text;
  EXPECT_TRUE(contains(text, "Requests per second:    0.00 [#/sec] (mean)\n"));
  EXPECT_TRUE(contains(text, "Time per request:       0.000 [ms] (mean)\n"));
  EXPECT_TRUE(contains(text, "Status codes:           none\n"));
  EXPECT_TRUE(contains(text, "No response arrived: no connection times or percentiles.\n"));
  EXPECT_FALSE(contains(text, "Connection Times"));
}

TEST(TextReport, OnlyFailuresStillSane) {
  Summary s;
  s.info.users = 5;
  for (int i = 0; i < 5; ++i) {
    s.total.add(result(1s, model::ErrorKind::timeout, 0));
  }
  s.elapsed = 1s;
  const std::string text = text_report(s);
  EXPECT_FALSE(contains(text, "nan")) << text;
  EXPECT_TRUE(contains(text, "Failed requests:        5\n"));
  EXPECT_TRUE(contains(text, "tp99: 0.000 ms\n"));
  EXPECT_TRUE(contains(text, "No response arrived"));
}

TEST(TextReport, StepsTableOnlyForAFlow) {
  Summary s = thousand_in_two_seconds();
  EXPECT_FALSE(contains(text_report(s), "Steps"));
  s.info.steps = {"POST http://127.0.0.1:8080/login", "GET http://127.0.0.1:8080/cart"};
  s.steps.resize(2);
  s.steps[0].add(result(std::chrono::milliseconds(2), model::ErrorKind::none, 200));
  s.steps[1].add(result(std::chrono::milliseconds(4), model::ErrorKind::verify, 500));
  s.steps[1].add(result(std::chrono::milliseconds(6), model::ErrorKind::none, 200));
  const std::string text = text_report(s);
  ASSERT_TRUE(contains(text, "Steps (each user sends them in this order, every round):"));
  EXPECT_TRUE(contains(text,
                       "   1         1         0     2.000     2.000     2.000     2.000  POST "
                       "http://127.0.0.1:8080/login\n"))
      << text;
  EXPECT_TRUE(contains(text,
                       "   2         2         1     5.000     4.014     6.000     6.000  GET "
                       "http://127.0.0.1:8080/cart\n"))
      << text;
}

TEST(TextReport, AMixGivesEachFlowItsShareAndItsOwnSteps) {
  Summary s = thousand_in_two_seconds();
  s.info.steps = {"GET http://h/home", "GET http://h/item", "POST http://h/pay"};
  s.info.flows = {{"browse.sh", 0, 2, 3}, {"pay.sh", 2, 1, 1}};
  s.steps.resize(3);
  for (int i = 0; i < 6; ++i) {
    s.steps[0].add(result(std::chrono::milliseconds(2), model::ErrorKind::none, 200));
    s.steps[1].add(result(std::chrono::milliseconds(2), model::ErrorKind::none, 200));
  }
  s.steps[2].add(result(std::chrono::milliseconds(4), model::ErrorKind::none, 200));
  s.steps[2].add(result(std::chrono::milliseconds(4), model::ErrorKind::none, 200));
  const std::string text = text_report(s);
  EXPECT_FALSE(contains(text, "Steps (each user")) << text;
  EXPECT_TRUE(contains(text,
                       "Flows (each user picks one by weight, every round):\n"
                       "flow  weight  weighed    rounds      sent  file\n"
                       "   1       3    75.0%         6     75.0%  browse.sh\n"
                       "   2       1    25.0%         2     25.0%  pay.sh\n"))
      << text;
  EXPECT_TRUE(contains(text,
                       "Steps of flow 2 (pay.sh), in this order:\n"
                       "step  requests    failed   mean ms    p50 ms    p99 ms    max ms  request\n"
                       "   1         2         0     4.000     4.000     4.000     4.000  POST "
                       "http://h/pay\n"))
      << text;
}

TEST(TextReport, NamesTheShardsMissingAndInterrupted) {
  auto s = thousand_in_two_seconds();
  const std::chrono::system_clock::time_point at(1'764'640'000s);
  s.sharding = statistics::Sharding{
      "3fa1c2d9e0b4",
      4,
      {{0, at + 2ms, at, statistics::StopReason::duration, std::nullopt},
       {2, at + 500us, at, statistics::StopReason::interrupted, std::nullopt}}};
  EXPECT_TRUE(contains(text_report(s),
                       "Shards:                 2 of 4 (run 3fa1c2d9e0b4); MISSING 2, 4; "
                       "INTERRUPTED 3; starts 1.5 ms apart; the latest 2.0 ms after --start-at\n"));
  s.sharding->shards.resize(1);
  EXPECT_TRUE(contains(text_report(s),
                       "Shards:                 shard 1 of 4 (run 3fa1c2d9e0b4); "
                       "the latest 2.0 ms after --start-at\n"));
}

TEST(TextReport, ShowsHowFarTheShardsClocksWereOff) {
  auto s = thousand_in_two_seconds();
  const std::chrono::system_clock::time_point at(1'764'640'000s);
  s.sharding = statistics::Sharding{"3fa1c2d9e0b4",
                                    3,
                                    {{0, at, at, statistics::StopReason::duration, -4ms},
                                     {1, at, at, statistics::StopReason::duration, std::nullopt},
                                     {2, at, at, statistics::StopReason::duration, 61500us}}};
  EXPECT_TRUE(contains(text_report(s),
                       "after --start-at; clock offsets -4.0 ms to 61.5 ms (with "
                       "the time to tell)\n"))
      << text_report(s);
  s.sharding->shards.resize(1);
  EXPECT_TRUE(contains(text_report(s), "; clock offset -4.0 ms (with the time to tell)\n"));
}

}  // namespace
}  // namespace stampede::report
