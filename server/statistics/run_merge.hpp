// merge_runs(): several runs (saved, of one test on several machines or one after another) as
// one, exactly: counts and histograms add, seconds line up on the wall clock.
#pragma once

#include <span>
#include <stdexcept>

#include "server/statistics/summary.hpp"

namespace stampede::statistics {

/// Runs that cannot be one: their flows have different steps or checks, or they are shards of
/// different runs, the same shard twice, or shards and runs that are not.
class MergeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One run holding every request of `runs` (at least one): totals, steps and histograms added;
/// started at the earliest start and ended at the latest end; users, threads and rates added.
/// Seconds that end in the same wall-clock second (to the nearest) become one, their counts
/// added and their latency figures taken from their added histograms. Thresholds and the
/// capacity plan are left to be judged again; shards (--shard) are listed together, so that the
/// missing ones are known. Throws MergeError when the flows differ or the shards do not fit.
Summary merge_runs(std::span<const Summary> runs);

}  // namespace stampede::statistics
