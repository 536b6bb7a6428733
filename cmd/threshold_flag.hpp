// parse_threshold(): --threshold as people type it, k6's words without a script.
#pragma once

#include <string_view>

#include "server/statistics/threshold.hpp"

namespace stampede::cmd {

/// `[stepN.]FIGURE OP BOUND`: FIGURE p50, p75, p90, p95, p99, p999 (or pN for any percentile),
/// mean, min, max (a length of time: 200ms, 1.5s, 250us; a bare number is milliseconds), rps
/// (requests a second), errors (`0.5%` a share of the requests, a bare whole number a count);
/// OP <, <=, > or >=; stepN the flow's Nth request (from 1). Throws UsageError naming it.
statistics::Threshold parse_threshold(std::string_view text);

}  // namespace stampede::cmd
