// parse_duration(): a length of time as people type it for a flag: 500ms, 30s, 2m, 1h, or seconds.
#pragma once

#include <chrono>
#include <string_view>

namespace stampede::cmd {

/// `text` as a duration: a number (fractions too) with a unit, ms, s, m or h, or without one in
/// seconds (as -t and -timeout take them). From 1 ms to a year (limits::max_seconds); anything
/// else throws UsageError naming `flag` and what it takes.
std::chrono::milliseconds parse_duration(std::string_view text, std::string_view flag);

}  // namespace stampede::cmd
