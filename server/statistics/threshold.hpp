// Threshold: a bound a run must keep (--threshold 'p99<200ms'), and its verdict over a Summary.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace stampede::statistics {

struct Summary;

/// The figure a threshold bounds.
enum class Figure : unsigned char {
  percentile,   ///< a latency percentile (Threshold::percentile)
  mean,         ///< mean latency
  min,          ///< shortest latency
  max,          ///< longest latency
  rps,          ///< completed requests a second
  error_share,  ///< failed and abandoned over all requests, 0 to 1
  error_count,  ///< failed and abandoned requests
};

enum class Comparison : unsigned char { less, less_equal, greater, greater_equal };

/// One bound, as --threshold gives it.
struct Threshold {
  std::string text;                 ///< as typed, for the report
  std::optional<std::size_t> step;  ///< a flow's step (0 the first); nullopt: the whole run
  Figure figure = Figure::percentile;
  double percentile = 99;  ///< for Figure::percentile: 50, 90, 99.9...
  Comparison comparison = Comparison::less;
  double bound = 0;  ///< ms for latencies, requests a second, a share (0 to 1), or a count
};

/// What a threshold found in a run.
struct ThresholdVerdict {
  std::string text;     ///< the threshold as typed
  double measured = 0;  ///< in the bound's unit (a share as 0 to 1)
  std::string unit;     ///< "ms", "requests/s", "share" or "requests"
  bool passed = false;
};

/// Measures `threshold`'s figure in `summary` and compares it with the bound. A step past the
/// flow's steps measures nothing and fails.
ThresholdVerdict judge(const Threshold& threshold, const Summary& summary);

/// True when nothing the rest of the run does can make `threshold` pass: an error count or the
/// longest latency already at or past an upper bound (both only grow), for --abort-on-fail.
bool cannot_pass(const Threshold& threshold, const Summary& summary);

}  // namespace stampede::statistics
