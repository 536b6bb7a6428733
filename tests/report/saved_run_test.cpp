// A saved run reads back exactly; HdrHistogram's encoding round-trips; damaged or newer files
// are refused.
#include "report/saved_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "report/hdr_encoding.hpp"
#include "report/saved_metrics.hpp"
#include "tests/report/results.hpp"

namespace stampede::report {
namespace {

using namespace std::chrono_literals;
using statistics::Histogram;
using statistics::Summary;
using testing::HasSubstr;

Histogram spread_histogram(unsigned seed, std::size_t values) {
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> latency(13.0, 1.5);  // about 0.4 ms, long tail
  Histogram histogram;
  for (std::size_t i = 0; i < values; ++i) {
    histogram.record(static_cast<std::uint64_t>(latency(random)));
  }
  histogram.record(0);
  histogram.record(Histogram::max_value);
  return histogram;
}

Summary sample_summary() {
  Summary summary;
  summary.info.origin = {model::Scheme::https, "127.0.0.1", 8443};
  summary.info.path = "/a?b=1";
  summary.info.users = 3;
  summary.info.requests_per_user = 7;
  summary.info.threads = 2;
  summary.info.steps = {"GET https://127.0.0.1:8443/a?b=1"};
  summary.info.flows = {{"a.curl.sh", 0, 1, 3}};
  summary.info.checks = {"--expect-status 200"};
  summary.info.latency_per_second = true;
  summary.info.protocol = model::Protocol::websocket;
  summary.info.held = true;
  summary.info.started_at = std::chrono::system_clock::time_point(1'764'640'000'123'456'789ns);
  for (int i = 0; i < 20; ++i) {
    summary.total.add(result(std::chrono::microseconds(100 + i * 37), model::ErrorKind::none, 200));
  }
  summary.total.add(result(0ns, model::ErrorKind::timeout, 0));
  auto refused = result(90us, model::ErrorKind::verify, 500);
  refused.failed_check = 1;
  summary.total.add(refused);
  auto late = result(120us, model::ErrorKind::none, 200);
  late.scheduled = true;
  late.lag = 3ms;
  summary.total.add(late);
  summary.total.note_server("nginx");
  summary.total.challenge = spread_histogram(4, 50);
  summary.info.stream_unit = "message";
  summary.total.events.first_event = spread_histogram(5, 30);
  summary.total.events.gap = spread_histogram(6, 40);
  summary.total.events.events = 70;
  summary.total.events.lost = 3;
  summary.total.events.unanswered = 2;
  summary.add_second(summary.total, 1s, 3);
  summary.elapsed = 1'234'567'891ns;
  summary.thresholds.push_back({"p99<5ms", 3.25, "ms", true});
  summary.stop_reason = statistics::StopReason::interrupted;
  return summary;
}

TEST(HdrEncoding, RoundTripsEveryCount) {
  const Histogram histogram = spread_histogram(1, 100'000);
  const auto counts = hdr_counts(hdr_base64(histogram));
  EXPECT_EQ(counts, histogram.counts_by_index());
  EXPECT_EQ(Histogram::from_counts(counts, histogram.exact()), histogram);
}

TEST(HdrEncoding, StartsWithTheV2CompressedCookie) {
  // "HISTFAAA" is how HdrHistogram's base64 V2 compressed histograms begin (cookie 0x1c849314).
  EXPECT_EQ(hdr_base64(spread_histogram(2, 10)).substr(0, 6), "HISTFA");
}

TEST(HdrEncoding, RefusesOtherText) {
  EXPECT_THROW(hdr_counts("not base64!"), std::invalid_argument);
  EXPECT_THROW(hdr_counts("AAAAAAAA"), std::invalid_argument);
}

TEST(HistogramFromCounts, RefusesExtremesOutsideTheCounts) {
  const Histogram histogram = spread_histogram(4, 100);
  auto exact = histogram.exact();
  exact.max = 1;
  EXPECT_THROW(Histogram::from_counts(histogram.counts_by_index(), exact), std::invalid_argument);
}

TEST(SavedRun, ReadsBackExactly) {
  const SavedRun run{sample_summary(),
                     {{{"-c", "3", "-u", "https://127.0.0.1:8443/a?b=1"},
                       "0.1.0",
                       std::chrono::system_clock::time_point(5s)}}};
  const SavedRun back = read_saved_run(saved_run_text(run));
  const Summary& a = run.summary;
  const Summary& b = back.summary;
  EXPECT_EQ(back.sources, run.sources);
  EXPECT_EQ(b.total, a.total);
  EXPECT_EQ(b.info.origin.scheme, a.info.origin.scheme);
  EXPECT_EQ(b.info.steps, a.info.steps);
  EXPECT_EQ(b.info.flows, a.info.flows);
  EXPECT_EQ(b.info.checks, a.info.checks);
  EXPECT_EQ(b.info.started_at, a.info.started_at);
  EXPECT_EQ(b.info.protocol, model::Protocol::websocket);
  EXPECT_TRUE(b.info.held);
  EXPECT_EQ(b.info.stream_unit, "message");
  EXPECT_EQ(b.elapsed, a.elapsed);
  EXPECT_EQ(b.stop_reason, a.stop_reason);
  ASSERT_EQ(b.per_second.size(), 1U);
  EXPECT_EQ(b.per_second[0].latency, a.per_second[0].latency);
  EXPECT_EQ(b.per_second[0].p99_ms, a.per_second[0].p99_ms);
  ASSERT_EQ(b.thresholds.size(), 1U);
  EXPECT_EQ(b.thresholds[0].measured, 3.25);
  EXPECT_FALSE(b.sharding);
}

TEST(SavedRun, KeepsItsShards) {
  auto summary = sample_summary();
  const std::chrono::system_clock::time_point at(1'764'640'000s);
  summary.sharding = statistics::Sharding{
      "3fa1c2d9e0b4",
      8,
      {{2, at + 1500us, at, statistics::StopReason::duration, -2300us},
       {5, at + 700us, std::nullopt, statistics::StopReason::interrupted, std::nullopt}},
      "a1b2c3d4e5f6"};
  const auto back = read_saved_run(saved_run_text({summary, {}}));
  EXPECT_EQ(back.summary.sharding, summary.sharding);
}

TEST(SavedRun, RefusesWhatIsNotOne) {
  EXPECT_THROW(read_saved_run("hello"), SavedRunError);
  EXPECT_THROW(read_saved_run(R"({"format": "other"})"), SavedRunError);
  EXPECT_THROW(read_saved_run(R"({"format": "stampede-run", "version": 1})"), SavedRunError);
}

TEST(SavedRun, RefusesANewerVersionByName) {
  try {
    read_saved_run(R"({"format": "stampede-run", "version": 2, "run": {}})");
    FAIL() << "read a newer version";
  } catch (const SavedRunError& error) {
    EXPECT_NE(std::string(error.what()).find("version 2"), std::string::npos) << error.what();
  }
}

/// The sample's saved text with `field` of its total set to `value` (JSON text).
std::string with_total(const std::string& path, const std::string& value) {
  auto json = SavedJson::parse(saved_run_text({sample_summary(), {}}));
  json["run"]["total"][SavedJson::json_pointer(path)] = SavedJson::parse(value);
  return json.dump();
}

/// The message read_saved_run refuses `text` with.
std::string refusal(const std::string& text) {
  try {
    read_saved_run(text);
  } catch (const SavedRunError& error) {
    return error.what();
  }
  return "read";
}

TEST(SavedRun, RefusesCountsNoRunMakes) {
  EXPECT_THAT(refusal(with_total("/bytes_sent", "18446744073709551621")),
              HasSubstr("'bytes_sent' is 1.8446744073709552e+19, not a count"));
  EXPECT_THAT(refusal(with_total("/bytes_sent", "-1")), HasSubstr("'bytes_sent' is -1"));
  EXPECT_THAT(refusal(with_total("/failed", "2.5")), HasSubstr("'failed' is 2.5, not a count"));
  EXPECT_THAT(refusal(with_total("/succeeded", "9223372036854775808")),
              HasSubstr("more requests than a run makes"));
  EXPECT_THAT(refusal(with_total("/succeeded", "22")),
              HasSubstr("'latency' (22) does not hold the 23 whole exchanges"));
  EXPECT_THAT(refusal(with_total("/failed", "7")), HasSubstr("'failed' (7) is not the sum"));
  EXPECT_THAT(refusal(with_total("/connections_opened", "4")), HasSubstr("'connections_opened'"));
  EXPECT_THAT(refusal(with_total("/status_codes/200", "99")), HasSubstr("'status_codes'"));
  EXPECT_THAT(refusal(with_total("/rate/scheduled", "0")), HasSubstr("'rate'"));
  EXPECT_EQ(refusal(with_total("/bytes_sent", "18446744073709551615")), "read");
}

TEST(SavedRun, RefusesInfoOutOfItsRange) {
  auto json = SavedJson::parse(saved_run_text({sample_summary(), {}}));
  json["run"]["info"]["users"] = 1e-300;
  EXPECT_THAT(refusal(json.dump()), HasSubstr("'users' is 1e-300, not a count"));
  json = SavedJson::parse(saved_run_text({sample_summary(), {}}));
  json["run"]["info"]["port"] = 65536;
  EXPECT_THAT(refusal(json.dump()), HasSubstr("'port' is 65536, not a count up to 65535"));
  json = SavedJson::parse(saved_run_text({sample_summary(), {}}));
  json["run"]["elapsed_ns"] = -5;
  EXPECT_THAT(refusal(json.dump()), HasSubstr("'elapsed_ns' is -5"));
  json = SavedJson::parse(saved_run_text({sample_summary(), {}}));
  json["version"] = 4294967297;
  EXPECT_THAT(refusal(json.dump()), HasSubstr("version 4294967297"));
}

TEST(SavedMetrics, SumsAboveSixtyFourBitsSurvive) {
  const unsigned __int128 big = (static_cast<unsigned __int128>(1) << 100) + 7;
  EXPECT_EQ(u128_from_text(u128_text(big)), big);
  EXPECT_THROW(u128_from_text("12x"), std::invalid_argument);
  EXPECT_THROW(u128_from_text(std::string(40, '9')), std::invalid_argument);
}

}  // namespace
}  // namespace stampede::report
