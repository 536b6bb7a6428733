// parse_duration(): a length of time as people type it for a flag (500ms, 30s, 2m, 1h, seconds),
// and parse_duration_range() for a span of them (200ms-1s).
#pragma once

#include <chrono>
#include <string_view>

namespace stampede::cmd {

/// `text` as a duration: a number (fractions too) with a unit, ms, s, m or h, or without one in
/// seconds (as -t and -timeout take them). From 1 ms to a year (limits::max_seconds); anything
/// else throws UsageError naming `flag` and what it takes.
std::chrono::milliseconds parse_duration(std::string_view text, std::string_view flag);

/// A span of durations, from min to max.
struct DurationRange {
  std::chrono::milliseconds min{0};
  std::chrono::milliseconds max{0};
};

/// `text` as "A-B" (each as parse_duration() takes it, A at most B), or one duration D (D-D).
DurationRange parse_duration_range(std::string_view text, std::string_view flag);

}  // namespace stampede::cmd
