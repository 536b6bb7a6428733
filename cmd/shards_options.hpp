// The command line of `stampede shards --hosts H1,H2 [...] -- LOAD FLAGS`.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cmd/file_clash.hpp"

namespace stampede::cmd {

/// `stampede shards`: one load run split over hosts reached by ssh, merged and judged here.
struct ShardsCommand {
  std::vector<std::string> hosts;       ///< --hosts: shard i runs on hosts[i]
  std::vector<std::string> ssh{"ssh"};  ///< --ssh: the command and its options, split on blanks
  std::string remote_stampede = "stampede";  ///< --stampede: the program on the hosts
  std::chrono::milliseconds lead{5000};      ///< --lead: --start-at is this far from now
  /// --wait: how long the shards may take after --start-at before they are stopped and named;
  /// empty: as long as the load's -z, --stages or -timeout says, with 30 s to spare.
  std::optional<std::chrono::milliseconds> wait;
  std::string dir;                        ///< --dir: where each shard's run is kept
  std::vector<std::string> report_args;   ///< --output, --threshold, --save, -e, --html
  std::vector<NamedFile> report_outputs;  ///< the files of --save, -e, --html
  std::vector<std::string> load_args;     ///< after `--`: each shard's flags, as for a run
  bool help = false;                      ///< -h, --help: print the help, run nothing
};

/// Reads its table of flags (shards_options.cpp) before `--`, the load after it. Throws
/// UsageError (unless help is asked for) for an unknown flag, no host, no load after `--`, a load
/// flag the command sets itself (--shard, --shards, --start-at, --run-id, --save) or a load that
/// would not parse.
ShardsCommand parse_shards_options(std::span<const char* const> args);

}  // namespace stampede::cmd
