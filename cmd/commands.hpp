// stampede's commands: a load run (the default), `serve` (the built-in target), and `report` and
// `compare` over saved runs.
#pragma once

#include <span>

namespace stampede::cmd {

/// The exit status of a run that ended but broke a --threshold: apart from 1 (it could not run)
/// and 2 (usage), so CI tells "the service is too slow" from "the tool could not run".
inline constexpr int exit_threshold_failed = 3;
/// The exit status of `stampede compare` when the second run broke a --max-* bound.
inline constexpr int exit_regressed = 4;

/// The exit status of `stampede report` over the shards of a run (--shard) when some shard is
/// missing or was stopped before its end: the merged figures are not the whole load's. It wins
/// over exit_threshold_failed, as thresholds judged a part of the load say little.
inline constexpr int exit_incomplete = 5;

/// A load run: argv (without the program name) -> engine -> live rows and report on stdout.
/// Returns the exit status (0, or exit_threshold_failed); throws UsageError (exit 2) or
/// std::exception (exit 1).
int run_load(std::span<const char* const> args);

/// `stampede serve [flags]` (serve_options.hpp): the built-in target, serving until SIGINT or
/// SIGTERM.
int run_serve(std::span<const char* const> args);

/// `stampede report FILE...` (report_options.hpp): saved runs rendered, merged into one when
/// several; returns 0 or exit_threshold_failed; throws UsageError for a file that is not a
/// saved run (or of a newer format); exit_incomplete for shards of a run without all of them.
int run_report(std::span<const char* const> args);

/// `stampede shards --hosts ... -- LOAD` (shards_options.hpp): the load split over the hosts by
/// ssh, their runs merged and judged as run_report() does; returns its status. Throws
/// UsageError, or std::runtime_error (exit 1) when no shard ran.
int run_shards(std::span<const char* const> args);

/// `stampede compare A B`: B beside the baseline A; returns 0, or exit_regressed when a bound
/// broke.
int run_compare(std::span<const char* const> args);

}  // namespace stampede::cmd
