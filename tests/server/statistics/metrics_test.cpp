// Metrics: what one Result adds, and that merge is associative and commutative field by field.
#include "server/statistics/metrics.hpp"

#include <gtest/gtest.h>

#include <map>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <string_view>

namespace stampede::statistics {
namespace {

using model::ErrorKind;
using model::Result;
using std::chrono::nanoseconds;

Result success(std::int64_t latency_ns, std::uint64_t body = 100) {
  Result r;
  r.status = 200;
  r.latency = nanoseconds{latency_ns};
  r.waiting = nanoseconds{latency_ns / 2};
  r.bytes_received = body + 150;
  r.body_bytes = body;
  r.bytes_sent = 80;
  r.keep_alive = true;
  return r;
}

TEST(Metrics, AddCountsASuccess) {
  Metrics m;
  Result r = success(2'000'000, 612);
  r.new_connection = true;
  r.connect = nanoseconds{300'000};
  m.add(r);
  EXPECT_EQ(m.succeeded, 1U);
  EXPECT_EQ(m.failed, 0U);
  EXPECT_EQ(m.completed(), 1U);
  EXPECT_EQ(m.errors_of(ErrorKind::none), 0U);
  EXPECT_EQ(m.status_codes, (std::map<int, std::uint64_t>{{200, 1}}));
  EXPECT_EQ(m.latency.count(), 1U);
  EXPECT_EQ(m.latency.max(), 2'000'000U);
  EXPECT_EQ(m.connect.count(), 1U);
  EXPECT_EQ(m.connect.min(), 300'000U);
  EXPECT_EQ(m.waiting.count(), 1U);
  EXPECT_EQ(m.waiting.min(), 1'000'000U);
  EXPECT_EQ(m.bytes_received, 762U);
  EXPECT_EQ(m.body_bytes, 612U);
  EXPECT_EQ(m.bytes_sent, 80U);
  EXPECT_EQ(m.connections_opened, 1U);
  EXPECT_EQ(m.keep_alive_responses, 1U);
  EXPECT_EQ(m.document_length(), 612U);
}

TEST(Metrics, ARejectionCountsUnderItsCheckAndMerges) {
  Metrics a;
  Result rejected = success(1'000, 5);
  rejected.error = ErrorKind::verify;
  rejected.failed_check = 2;
  a.add(rejected);
  a.add(rejected);
  a.add(success(1'000, 5));  // a success names no check
  Metrics b;
  rejected.failed_check = 1;
  b.add(rejected);
  a.merge(b);
  EXPECT_EQ(a.failed_checks, (std::map<int, std::uint64_t>{{1, 1}, {2, 2}}));
  a.reset();
  EXPECT_TRUE(a.failed_checks.empty());
}

TEST(Metrics, AddCountsFailuresByKind) {
  Metrics m;
  Result timeout;
  timeout.error = ErrorKind::timeout;
  timeout.latency = nanoseconds{30'000'000'000};
  timeout.server = "nginx";  // from a status line before the timeout: not a whole response
  m.add(timeout);
  Result rejected = success(1'000, 5);
  rejected.error = ErrorKind::verify;
  rejected.status = 500;
  m.add(rejected);
  Result refused;
  refused.error = ErrorKind::connect;
  m.add(refused);

  EXPECT_EQ(m.succeeded, 0U);
  EXPECT_EQ(m.failed, 3U);
  EXPECT_EQ(m.errors_of(ErrorKind::timeout), 1U);
  EXPECT_EQ(m.errors_of(ErrorKind::verify), 1U);
  EXPECT_EQ(m.errors_of(ErrorKind::connect), 1U);
  EXPECT_EQ(m.errors_of(ErrorKind::read), 0U);
  EXPECT_EQ(m.status_codes, (std::map<int, std::uint64_t>{{500, 1}}));  // no status line: not kept
  // Only the rejected response was a whole exchange; the timeout's "latency" is not one.
  EXPECT_EQ(m.latency.count(), 1U);
  EXPECT_EQ(m.latency.max(), 1'000U);
  EXPECT_EQ(m.connect.count(), 0U);
  EXPECT_EQ(m.waiting.count(), 1U);
  EXPECT_EQ(m.document_length(), 0U);  // no success yet
  EXPECT_EQ(m.server_software(), "");
}

TEST(Metrics, AConnectionOpenedApartCountsItsConnectTimeNotARequest) {
  Metrics m;
  model::ExchangeRecord opened;
  opened.connect = nanoseconds{400'000};
  m.add_connection(opened, std::chrono::milliseconds(1'200));
  EXPECT_EQ(m.connections_opened, 1U);
  EXPECT_EQ(m.long_lived.opened, 1U);
  EXPECT_EQ(m.long_lived.last_opened, std::chrono::milliseconds(1'200));
  EXPECT_EQ(m.connect.count(), 1U);
  EXPECT_EQ(m.connect.min(), 400'000U);
  EXPECT_EQ(m.completed(), 0U);
  EXPECT_EQ(m.latency.count(), 0U);
  EXPECT_TRUE(m.status_codes.empty());  // the 101 of the upgrade is not a response
}

TEST(Metrics, AStreamOnASharedConnectionCountsItsQueueingAndItsNeighbours) {
  Metrics m;
  m.add(success(1000));  // its own connection: no stream counts
  EXPECT_EQ(m.streams.streams, 0U);
  EXPECT_EQ(m.queueing.count(), 0U);
  for (std::uint32_t open : {1U, 4U, 4U, 3U}) {
    Result r = success(1000);
    r.streams_open = open;
    r.queueing = nanoseconds{open * 1000};
    m.add(r);
  }
  EXPECT_EQ(m.streams.streams, 4U);
  EXPECT_EQ(m.streams.open_max, 4U);
  EXPECT_DOUBLE_EQ(m.streams.open_mean(), 3.0);
  EXPECT_EQ(m.queueing.count(), 4U);
  EXPECT_NEAR(static_cast<double>(m.queueing.max()), 4000.0, 40.0);  // the histogram's 1%
}

TEST(Metrics, ARefusedUpgradeCountsItsStatus) {
  Metrics m;
  Result refused;
  refused.error = ErrorKind::handshake;
  refused.status = 403;
  m.add(refused);
  Result closed;  // a message the server closed on: no status, no latency
  closed.error = ErrorKind::closed;
  closed.latency = nanoseconds{1'000};
  m.add(closed);
  EXPECT_EQ(m.failed, 2U);
  EXPECT_EQ(m.status_codes, (std::map<int, std::uint64_t>{{403, 1}}));
  EXPECT_EQ(m.latency.count(), 0U);  // neither was a whole exchange
}

TEST(Metrics, DocumentLengthAndServerAreTheMostFrequent) {
  Metrics m;
  Result failed = success(10, 999);
  failed.error = ErrorKind::verify;
  m.add(failed);  // a rejected body is not a document
  m.add(success(10, 0));
  m.add(success(10, 512));
  m.add(success(10, 512));
  EXPECT_EQ(m.document_length(), 512U);
  m.note_server("");  // no header: not counted
  EXPECT_EQ(m.server_software(), "");
  m.note_server("nginx/1.22.1");
  m.note_server("Apache");
  EXPECT_EQ(m.server_software(), "Apache");  // a tie goes to the smaller value
  m.note_server("nginx/1.22.1");
  EXPECT_EQ(m.server_software(), "nginx/1.22.1");
}

// A stretch of a run with a bit of everything. Server and body length differ between seeds, as
// behind a load balancer, so a merge that let the order choose them would show it.
Metrics random_metrics(unsigned seed, std::size_t n) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> kind(0, static_cast<int>(model::error_kind_count) - 1);
  std::lognormal_distribution<double> latency(std::log(2e6), 0.8);
  std::uniform_int_distribution<int> coin(0, 3);
  const std::string server = "backend-" + std::to_string(seed);
  Metrics m;
  for (std::size_t i = 0; i < n; ++i) {
    Result r = success(static_cast<std::int64_t>(latency(rng)), 4096 + seed * (i % 2));
    r.error = static_cast<ErrorKind>(coin(rng) == 0 ? kind(rng) : 0);
    r.status = r.error == ErrorKind::none ? 200 : (r.error == ErrorKind::verify ? 503 : 0);
    r.server = r.status != 0 ? std::string_view(server) : std::string_view();
    r.new_connection = coin(rng) == 0;
    r.connect = r.new_connection ? nanoseconds{100'000 + coin(rng) * 1000} : nanoseconds{0};
    r.keep_alive = !r.new_connection;
    r.negotiated = r.new_connection ? static_cast<model::Negotiated>(1 + coin(rng)) : r.negotiated;
    if (coin(rng) == 1) {  // a stream on a shared HTTP/2 connection (-m)
      r.streams_open = static_cast<std::uint32_t>(1 + coin(rng) + seed);
      r.queueing = nanoseconds{coin(rng) * 5000};
    }
    if (coin(rng) == 2) {  // an event of an event stream (--sse)
      r.stream_event = coin(rng) == 0 ? model::StreamEvent::first : model::StreamEvent::next;
      r.first_event = r.latency + nanoseconds{coin(rng) * 1000};
      r.events_lost = static_cast<std::uint32_t>(coin(rng));
    }
    m.add(r);
    if (coin(rng) == 0) {  // a WebSocket's connection, opened apart, and what became of it
      model::ExchangeRecord opened;
      opened.connect = nanoseconds{200'000 + coin(rng) * 1000};
      m.add_connection(opened, nanoseconds{i});
      m.long_lived.ended += coin(rng) == 0 ? 1 : 0;
      if (coin(rng) == 0) m.long_lived.fail(ErrorKind::handshake);
    }
  }
  return m;
}

Metrics merged_metrics(Metrics left, const Metrics& right) {
  left.merge(right);
  return left;
}

void expect_same_percentiles(const Histogram& a, const Histogram& b) {
  for (double q : {0.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
    EXPECT_EQ(a.percentile(q), b.percentile(q)) << "q=" << q;
  }
  EXPECT_EQ(a.mean(), b.mean());
  EXPECT_EQ(a.stdev(), b.stdev());
}

TEST(Metrics, MergeIsAssociativeAndCommutative) {
  const Metrics a = random_metrics(1, 3000);
  const Metrics b = random_metrics(2, 5000);
  const Metrics c = random_metrics(3, 700);
  const Metrics left = merged_metrics(merged_metrics(a, b), c);
  const Metrics right = merged_metrics(a, merged_metrics(b, c));
  EXPECT_EQ(left, right);
  EXPECT_EQ(merged_metrics(a, b), merged_metrics(b, a));
  EXPECT_EQ(merged_metrics(merged_metrics(c, a), b), left);
  expect_same_percentiles(left.latency, right.latency);
  expect_same_percentiles(left.connect, merged_metrics(merged_metrics(c, b), a).connect);
  EXPECT_EQ(left.completed(), 8700U);
  EXPECT_EQ(left.long_lived.opened,
            a.long_lived.opened + b.long_lived.opened + c.long_lived.opened);
  EXPECT_GT(left.long_lived.failures(), 0U);
  EXPECT_EQ(left.streams.streams, a.streams.streams + b.streams.streams + c.streams.streams);
  EXPECT_EQ(left.streams.open_max, 7U);  // c's: 1 + 3 + 3
  EXPECT_EQ(std::accumulate(left.negotiated.begin(), left.negotiated.end(), std::uint64_t{0}),
            left.connections_opened);
  EXPECT_EQ(left.queueing.count(), left.streams.streams);
  EXPECT_EQ(left.server_software(), "backend-2");  // b has the most responses
  EXPECT_EQ(left.document_length(), 4096U);        // half of every stretch's successes
}

TEST(Metrics, MergeEqualsAddingEverythingInOne) {
  Metrics all, odd, even;
  for (int i = 1; i <= 1000; ++i) {
    Result r = success(i * 1000, 7);
    if (i % 10 == 0) {
      r.error = ErrorKind::read;
      r.status = 0;
    }
    all.add(r);
    (i % 2 == 0 ? even : odd).add(r);
  }
  Metrics sum;
  sum.merge(odd);
  sum.merge(even);
  EXPECT_EQ(sum, all);
  EXPECT_EQ(sum.errors_of(ErrorKind::read), 100U);
  EXPECT_EQ(sum.status_codes.at(200), 900U);
}

TEST(Metrics, MergeOrderDoesNotChooseServerOrDocumentLength) {
  Metrics empty, first, second;
  first.add(success(10, 22));
  first.note_server("second");
  second.add(success(10, 11));
  second.note_server("first");
  EXPECT_EQ(merged_metrics(first, second), merged_metrics(second, first));
  EXPECT_EQ(merged_metrics(first, second).document_length(), 11U);  // a tie: the smaller
  EXPECT_EQ(merged_metrics(first, second).server_software(), "first");
  second.add(success(10, 22));
  second.note_server("second");
  EXPECT_EQ(merged_metrics(second, first).document_length(), 22U);  // seen twice
  EXPECT_EQ(merged_metrics(second, first).server_software(), "second");
  EXPECT_EQ(merged_metrics(empty, second), second);
  EXPECT_EQ(merged_metrics(second, empty), second);
}

TEST(Metrics, MemoryIsSmallEmptyAndGrowsWithTheOctavesUsed) {
  Metrics m;
  // A flow step per thread starts at this: ten empty histograms (--rate's two, --digest's and
  // event streams' two among them) and a few empty maps (WebSocket's close codes among them).
  EXPECT_LT(m.memory_bytes(), 2000U);
  for (int i = 0; i < 1000; ++i) {
    Result r = success(1'100'000 + i * 500);  // 1.1 to 1.6 ms: one octave
    r.waiting = nanoseconds{0};
    r.server = "nginx";
    m.add(r);
  }
  // latency and processing hold one octave (1 KB) each; the eight others none.
  EXPECT_LT(m.memory_bytes(), 1900U + 2 * 1024 + 256);
}

TEST(Metrics, ResetEqualsFresh) {
  Metrics m = random_metrics(4, 500);
  const auto bytes = m.latency.memory_bytes();
  m.reset();
  EXPECT_EQ(m, Metrics{});
  EXPECT_EQ(m.latency.memory_bytes(), bytes);
}

}  // namespace
}  // namespace stampede::statistics
