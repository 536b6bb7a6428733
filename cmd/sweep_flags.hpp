// parse_sweep() and parse_slo(): --sweep / --sweep-rate and --slo as people type them.
#pragma once

#include <string_view>
#include <vector>

#include "cmd/options.hpp"
#include "server/sweep/slo.hpp"

namespace stampede::cmd {

/// A sweep as asked: its levels, or a search for them.
struct SweepFlags {
  bool by_rate = false;    ///< --sweep-rate: the levels are requests a second, not users
  bool automatic = false;  ///< `auto`: AutoSearch picks the levels
  std::vector<double> levels;
};

/// --sweep L1,L2,... (whole users, 1 to limits::max_users) or --sweep-rate R1,R2,... (requests a
/// second, limits::min_rate to limits::max_rate), rising, at most 100; or `auto`. Throws
/// UsageError naming the level at fault. Call only when one of them was given.
SweepFlags parse_sweep(const Options& options);

/// --slo as comma-separated bounds: p50, p90 or p99 (or mean) below a length of time
/// (`p99<100ms`, lengths as parse_duration() takes them), `errors<1%`. Throws UsageError naming
/// the bound at fault.
server::sweep::Slo parse_slo(std::string_view text);

}  // namespace stampede::cmd
