// --threshold as typed: every figure, comparison and unit, steps, and what is refused.
#include "cmd/threshold_flag.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

using statistics::Comparison;
using statistics::Figure;

std::string threshold_refusal(const char* text) {
  try {
    (void)parse_threshold(text);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(ThresholdFlag, ReadsPercentilesAndLengthsOfTime) {
  const auto p99 = parse_threshold("p99<200ms");
  EXPECT_EQ(p99.figure, Figure::percentile);
  EXPECT_EQ(p99.percentile, 99);
  EXPECT_EQ(p99.comparison, Comparison::less);
  EXPECT_EQ(p99.bound, 200);
  EXPECT_EQ(p99.text, "p99<200ms");
  EXPECT_EQ(parse_threshold("p999<1.5s").percentile, 99.9);
  EXPECT_EQ(parse_threshold("p999<1.5s").bound, 1500);
  EXPECT_EQ(parse_threshold("p9999<1s").percentile, 99.99);
  EXPECT_EQ(parse_threshold("p75<=250us").bound, 0.25);
  EXPECT_EQ(parse_threshold("p75<=250us").comparison, Comparison::less_equal);
  EXPECT_EQ(parse_threshold("mean<20").bound, 20);  // a bare number is milliseconds
  EXPECT_EQ(parse_threshold("max<1m").bound, 60'000);
  EXPECT_EQ(parse_threshold("avg<5ms").figure, Figure::mean);
}

TEST(ThresholdFlag, ReadsRatesErrorsAndSteps) {
  const auto rps = parse_threshold("rps>=2000");
  EXPECT_EQ(rps.figure, Figure::rps);
  EXPECT_EQ(rps.comparison, Comparison::greater_equal);
  EXPECT_EQ(rps.bound, 2000);
  EXPECT_EQ(parse_threshold("errors<0.5%").figure, Figure::error_share);
  EXPECT_DOUBLE_EQ(parse_threshold("errors<0.5%").bound, 0.005);
  EXPECT_EQ(parse_threshold("errors<10").figure, Figure::error_count);
  EXPECT_EQ(parse_threshold("errors<10").bound, 10);
  const auto step = parse_threshold("step2.p99<50ms");
  ASSERT_TRUE(step.step);
  EXPECT_EQ(*step.step, 1U);
  EXPECT_EQ(step.bound, 50);
  EXPECT_FALSE(parse_threshold("p99<50ms").step);
}

TEST(ThresholdFlag, RefusesWhatItCannotRead) {
  EXPECT_EQ(threshold_refusal("p99"),
            "--threshold 'p99': no comparison (<, <=, > or >=) (as in "
            "'p99<200ms', 'errors<0.5%', 'rps>2000', 'step2.p99<50ms')");
  EXPECT_NE(threshold_refusal("p101<1s").find("unknown figure 'p101'"), std::string::npos);
  EXPECT_NE(threshold_refusal("latency<1s").find("unknown figure 'latency'"), std::string::npos);
  EXPECT_NE(threshold_refusal("p99<fast").find("a latency is bounded by a length of time"),
            std::string::npos);
  EXPECT_NE(threshold_refusal("p99<-1ms").find("a length of time"), std::string::npos);
  EXPECT_NE(threshold_refusal("errors<1.5").find("a whole number of requests"), std::string::npos);
  EXPECT_NE(threshold_refusal("errors<101%").find("from 0% to 100%"), std::string::npos);
  EXPECT_NE(threshold_refusal("rps>many").find("requests a second"), std::string::npos);
  EXPECT_NE(threshold_refusal("step0.p99<1s").find("step1, step2"), std::string::npos);
  EXPECT_NE(threshold_refusal("stepx.p99<1s").find("step1, step2"), std::string::npos);
}

}  // namespace
}  // namespace stampede::cmd
