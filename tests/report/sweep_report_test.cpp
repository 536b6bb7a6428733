// A sweep's report: the table with its knee and reason, the side-by-side winner, the JSON fields,
// and the capacity plan's lines in a run's reports.
#include "report/sweep_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "report/json_report.hpp"
#include "report/text_report.hpp"

namespace stampede::report {
namespace {

using server::sweep::StepFigures;
using server::sweep::SweepResult;
using server::sweep::TargetSweep;

StepFigures step(double level, double qps, double errors = 0) {
  StepFigures s;
  s.level = level;
  s.qps = qps;
  s.mean_ms = 50;
  s.p50_ms = 50;
  s.p90_ms = 51;
  s.p99_ms = 52;
  s.error_share = errors;
  s.time_per_request_ms = 1000 / qps;
  s.requests = static_cast<std::uint64_t>(qps * 2);
  return s;
}

/// The seeds' two servers: #1 stops rising after 4 users, #2 keeps on.
SweepResult two_servers() {
  SweepResult sweep;
  sweep.step_s = 2;
  TargetSweep apache{"http://a/", {step(2, 40), step(4, 80), step(8, 81, 0.5)}, {1, 2, "QPS"}};
  TargetSweep nginx{"http://b/", {step(2, 39), step(4, 79), step(8, 150)}, {2, {}, ""}};
  sweep.targets = {apache, nginx};
  return sweep;
}

TEST(SweepText, MarksTheKneeAndSaysWhyTheNextStepBroke) {
  auto sweep = two_servers();
  sweep.targets[0].knee.why = "QPS +1.3% for +100.0% level";
  const auto text = sweep_text(sweep);
  EXPECT_NE(
      text.find(
          "Sweep by users: 2.0 s a step after 0.0 s of warm-up; QPS counts successful requests; "
          "the knee is where it stops rising\n"),
      std::string::npos);
  EXPECT_NE(text.find("         4      80.00      50.00"), std::string::npos) << text;
  EXPECT_NE(text.find("     12.500  <- knee\n"), std::string::npos) << text;
  EXPECT_NE(text.find("50.00%      12.346  <- broke\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Knee:                   4 users, 80.00 successful requests/s\n"
                      "Next step broke:        8 users: QPS +1.3% for +100.0% level\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Knee:                   not reached: every step held, up to 8 users, "
                      "150.00 successful requests/s\n"),
            std::string::npos);
}

TEST(SweepText, PutsTheTargetsSideBySideWithTheBestAtEachLevel) {
  const auto text = sweep_text(two_servers());
  EXPECT_NE(text.find("Side by side, successful requests/s:\n  #1  http://a/\n  #2  http://b/\n"
                      "     users         #1         #2   best\n"
                      "         2      40.00      39.00     #1\n"
                      "         4      80.00      79.00     #1\n"
                      "         8      81.00     150.00     #2\n"),
            std::string::npos)
      << text;
}

TEST(SweepText, AFirstStepThatBrokeLeavesNoKnee) {
  SweepResult sweep;
  sweep.by_rate = true;
  sweep.targets = {{"http://a/", {step(100, 90)}, {{}, 0, "p99 52 ms >= 10 ms"}}};
  EXPECT_NE(sweep_text(sweep).find("Knee:                   below 100 requests/s: the "
                                   "first step broke (p99 52 ms >= 10 ms)\n"),
            std::string::npos)
      << sweep_text(sweep);
}

TEST(SweepJson, HasEveryTargetsStepsAndKnee) {
  auto sweep = two_servers();
  sweep.interrupted = true;
  sweep.capacity = statistics::plan_capacity({30'000'000, 0.8, 0.2, 80});
  const auto json = nlohmann::json::parse(sweep_json(sweep));
  EXPECT_EQ(json["sweep"]["by"], "users");
  EXPECT_EQ(json["sweep"]["interrupted"], true);
  EXPECT_EQ(json["sweep"]["targets"], (nlohmann::json{"http://a/", "http://b/"}));
  ASSERT_EQ(json["sweep"]["steps"].size(), 6U);
  EXPECT_EQ(json["sweep"]["steps"][2]["url"], "http://a/");
  EXPECT_EQ(json["sweep"]["steps"][2]["error_share"], 0.5);
  EXPECT_EQ(json["sweep"]["steps"][3]["url"], "http://b/");
  EXPECT_EQ(json["sweep"]["knee"][0],
            (nlohmann::json{
                {"url", "http://a/"}, {"level", 4}, {"qps", 80}, {"broke_at", 8}, {"why", "QPS"}}));
  EXPECT_EQ(json["sweep"]["knee"][1]["broke_at"], nullptr);
  EXPECT_EQ(json["capacity"]["peak_qps"], 1388.889);
  EXPECT_EQ(json["capacity"]["servers_needed"], 18);
}

TEST(CapacityInARun, BothReportsShowThePlanWithItsInputs) {
  statistics::Summary summary;
  summary.capacity = statistics::plan_capacity({30'000'000, 0.8, 0.2, 500});
  const auto text = text_report(summary);
  EXPECT_NE(text.find("Capacity plan (--pv):\n"
                      "Page views a day:       30000000 (80% of them in 20% of the day)\n"
                      "Peak rate:              1388.89 requests/s (PV x 0.80 / (86400 s x 0.20))\n"
                      "One server took:        500.00 successful requests/s (this run)\n"
                      "Servers needed:         3\n"),
            std::string::npos)
      << text;
  const auto json = nlohmann::json::parse(json_report(summary));
  EXPECT_EQ(json["capacity"]["measured_qps"], 500);
  EXPECT_EQ(json["capacity"]["servers_needed"], 3);
  EXPECT_FALSE(nlohmann::json::parse(json_report({})).contains("capacity"));
}

}  // namespace
}  // namespace stampede::report
