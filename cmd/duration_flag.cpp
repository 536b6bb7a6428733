// parse_duration(): a number and its unit, checked against the range a run's lengths take.
#include "cmd/duration_flag.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <string>

#include "cmd/limits.hpp"
#include "cmd/options.hpp"

namespace stampede::cmd {

namespace {

struct Unit {
  std::string_view suffix;
  double seconds;
};

/// Longest suffix first where one ends another ("ms" before "s").
constexpr std::array units{Unit{"ms", 0.001}, Unit{"s", 1}, Unit{"m", 60}, Unit{"h", 3600},
                           Unit{"", 1}};

[[noreturn]] void refuse_duration(std::string_view text, std::string_view flag) {
  throw UsageError(std::string(flag) +
                   " takes a length of time from 1 ms to a year: 500ms, 30s, 2m, 1h, or a number "
                   "of seconds (got '" +
                   std::string(text) + "')");
}

}  // namespace

std::chrono::milliseconds parse_duration(std::string_view text, std::string_view flag) {
  double value = 0;
  const auto* const end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc()) refuse_duration(text, flag);
  const std::string_view suffix(rest, static_cast<std::size_t>(end - rest));
  for (const auto& unit : units) {
    if (suffix != unit.suffix) continue;
    const double seconds = value * unit.seconds;
    // Written so that NaN fails too; rounded to the millisecond the plan counts in.
    if (!(seconds >= limits::min_run_timeout_s && seconds <= limits::max_seconds)) break;
    return std::chrono::milliseconds(std::llround(seconds * 1000));
  }
  refuse_duration(text, flag);
}

DurationRange parse_duration_range(std::string_view text, std::string_view flag) {
  const auto dash = text.find('-', 1);  // a leading '-' is a sign, which parse_duration refuses
  if (dash == std::string_view::npos) {
    const auto both = parse_duration(text, flag);
    return {both, both};
  }
  const DurationRange range{parse_duration(text.substr(0, dash), flag),
                            parse_duration(text.substr(dash + 1), flag)};
  if (range.min > range.max) {
    throw UsageError(std::string(flag) + " " + std::string(text) +
                     ": the shorter length of time comes first (A-B, from A to B)");
  }
  return range;
}

}  // namespace stampede::cmd
