// The command lines of `stampede report FILE...` and `stampede compare A B`.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cmd/file_clash.hpp"
#include "cmd/flag_table.hpp"
#include "server/statistics/run_compare.hpp"

namespace stampede::cmd {

/// `stampede report FILE... [--output FORMAT] [--threshold EXPR]... [--save FILE] [-e FILE]
/// [--html FILE]`.
struct ReportCommand {
  std::vector<std::string> files;  ///< saved runs, merged when more than one
  std::string output = "text";
  std::vector<std::string> thresholds;  ///< judged on the (merged) run, exit status 3
  std::string save_file;                ///< write the merged run as a saved run
  std::string percentiles_file;         ///< ab's percentile CSV
  std::string html_file;                ///< the (merged) run as one self-contained page
  bool help = false;                    ///< -h, --help: print the help, read nothing
};

/// `stampede compare A B [--output text|json] [--max-p99-regress 10%] [--max-rps-drop 5%]...`.
struct CompareCommand {
  std::string a;  ///< the baseline
  std::string b;  ///< the run judged against it
  std::string output = "text";
  statistics::CompareLimits limits;
  bool help = false;  ///< -h, --help: print the help, read nothing
};

/// Throws UsageError (exit 2) for an unknown flag, a bad format or threshold, or no file (unless
/// help is asked for).
ReportCommand parse_report_options(std::span<const char* const> args);

/// The files `command` writes (--save, -e, --html), each with its flag.
std::vector<NamedFile> outputs_of(const ReportCommand& command);

/// Throws UsageError for an unknown flag, other than two files, or a bound that is not a
/// percentage from 0 (`10%` or `10`; errors in percentage points).
CompareCommand parse_compare_options(std::span<const char* const> args);

/// The flags `report` shares with `shards` (what is written, and the thresholds judged), as
/// rows for any Target that is a ReportCommand.
template <class Target>
std::vector<Flag<Target>> report_output_flags() {
  constexpr std::string_view output = "Output";
  return {
      {{"--output", "FORMAT", "text", "the report: text, json or csv, as a run prints it", output},
       &into<Target, &ReportCommand::output>},
      {{"--threshold", "EXPR", "none",
        "a bound the (merged) run must keep, or exit status 3: p99<200ms, errors<0.5%, "
        "rps>2000 (repeatable)",
        output},
       &each_into<Target, &ReportCommand::thresholds>},
      {{"--save", "FILE", "", "write the (merged) run as one saved run", output},
       &into<Target, &ReportCommand::save_file>},
      {{"-e, --percentiles-csv", "FILE", "", "write ab's percentile CSV to FILE", output},
       &into<Target, &ReportCommand::percentiles_file>},
      {{"--html", "FILE", "", "write the (merged) run as one page that works offline", output},
       &into<Target, &ReportCommand::html_file>},
  };
}

}  // namespace stampede::cmd
