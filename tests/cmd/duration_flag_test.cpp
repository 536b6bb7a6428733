// parse_duration(): the units people type, bare seconds, and what it refuses.
#include "cmd/duration_flag.hpp"

#include <gtest/gtest.h>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

using std::chrono::milliseconds;

std::string duration_refusal(std::string_view text) {
  try {
    (void)parse_duration(text, "-z");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

TEST(ParseDuration, UnitsAndBareSeconds) {
  EXPECT_EQ(parse_duration("500ms", "-z"), milliseconds(500));
  EXPECT_EQ(parse_duration("30s", "-z"), milliseconds(30'000));
  EXPECT_EQ(parse_duration("2m", "-z"), milliseconds(120'000));
  EXPECT_EQ(parse_duration("1h", "-z"), milliseconds(3'600'000));
  EXPECT_EQ(parse_duration("1.5", "-z"), milliseconds(1'500));
  EXPECT_EQ(parse_duration("0.25m", "-z"), milliseconds(15'000));
  EXPECT_EQ(parse_duration("1ms", "-z"), milliseconds(1));
  EXPECT_EQ(parse_duration("31536000", "-z"), milliseconds(31'536'000'000));  // a year
}

TEST(ParseDuration, RefusesWhatIsNotALengthOfTimeInRange) {
  const std::string rule =
      "-z takes a length of time from 1 ms to a year: 500ms, 30s, 2m, 1h, or a number of "
      "seconds (got '";
  EXPECT_EQ(duration_refusal("0"), rule + "0')");
  EXPECT_EQ(duration_refusal("-1s"), rule + "-1s')");
  EXPECT_EQ(duration_refusal("10x"), rule + "10x')");
  for (const auto* bad : {"", "s", "0.5ms", "30 s", "+3s", "nan", "inf", "1e9h", "2d", "30S"}) {
    EXPECT_EQ(duration_refusal(bad), rule + bad + "')") << bad;
  }
}

TEST(ParseDurationRange, OneLengthOrAFromToSpan) {
  const auto fixed = parse_duration_range("500ms", "--think");
  EXPECT_EQ(fixed.min, milliseconds(500));
  EXPECT_EQ(fixed.max, milliseconds(500));
  const auto span = parse_duration_range("200ms-1s", "--think");
  EXPECT_EQ(span.min, milliseconds(200));
  EXPECT_EQ(span.max, milliseconds(1000));
  EXPECT_EQ(parse_duration_range("1-2", "--think").max, milliseconds(2000));
}

TEST(ParseDurationRange, RefusesABackwardSpanOrABadSide) {
  try {
    (void)parse_duration_range("1s-200ms", "--think");
    FAIL() << "a backward span was taken";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "--think 1s-200ms: the shorter length of time comes first (A-B, from A to B)");
  }
  for (const auto* bad : {"-1s", "1s-", "-", "1s-2s-3s", "0-1s", "1s-x"}) {
    EXPECT_THROW((void)parse_duration_range(bad, "--think"), UsageError) << bad;
  }
}

}  // namespace
}  // namespace stampede::cmd
