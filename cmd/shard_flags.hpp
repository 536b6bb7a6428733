// --shard I/N (or --shards N in a Kubernetes Indexed Job), --start-at and --run-id: one process's
// slice of a run spread over several machines, and when they all start.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cmd/options.hpp"
#include "model/plan.hpp"

namespace stampede::cmd {

/// Which shard this process is, of the run `run`.
struct ShardPosition {
  /// From 0, as JOB_COMPLETION_INDEX and the saved run count; `--shard I/N` and every message
  /// count from 1 (index + 1).
  unsigned index = 0;
  unsigned count = 1;
  std::string run;  ///< --run-id, or one made from the command line (derived_run_id)
  /// --told-at: when the shard was told to start, by the clock of whoever told it.
  std::optional<std::chrono::system_clock::time_point> told_at;
  std::string plan{};  ///< plan_digest() of the command line
};

/// The most shards a run splits into: a large cluster's worth; more is a typo.
inline constexpr unsigned max_shards = 10'000;

/// --shard I/N, or --shards N with I from `job_index` (JOB_COMPLETION_INDEX, which a Kubernetes
/// Indexed Job gives each pod; null when it is not set); empty without either. Throws
/// UsageError for a malformed or out-of-range I/N, both flags, or --shards without the index.
std::optional<ShardPosition> shard_position(const Options& options, const char* job_index);

/// --start-at or --told-at TIME: RFC 3339, `2026-12-01T10:00:00Z` (a fraction of a second and an
/// offset such as +01:00 too). Throws UsageError naming `flag` for anything else.
std::chrono::system_clock::time_point parse_instant(std::string_view text,
                                                    std::string_view flag = "--start-at");

/// The id every shard of one run shares when --run-id names none: a digest of `words` (the
/// canonical command line) without what differs between shards (--shard, --save and the other
/// output files), so the same command with the same --start-at gives the same id anywhere.
std::string derived_run_id(const std::vector<std::string>& words);

/// What every shard of one run must share: a digest of `words` without what differs between
/// shards (as derived_run_id(), and --start-at too), so a merge can refuse shards of other flags.
std::string plan_digest(const std::vector<std::string>& words);

/// The shard's slice of `plan`: the users (the remainder to the first shards, numbered on from
/// the shards before), --rate and its -n, each stage's target, --connect-rate, -m, the
/// --data-file rows of a per-request or random --data-mode (per-user rows follow the users'
/// numbers) and the --source-ips addresses. `users_given`: -c was given (--rate's default cap is
/// sized after the rate is split). Throws UsageError when some shard would get none of what is
/// split.
void slice_plan(model::Plan& plan, const ShardPosition& shard, bool users_given);

}  // namespace stampede::cmd
