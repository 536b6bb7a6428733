// The command lines of `stampede report FILE...` and `stampede compare A B`.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cmd/file_clash.hpp"
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
};

/// `stampede compare A B [--output text|json] [--max-p99-regress 10%] [--max-rps-drop 5%]...`.
struct CompareCommand {
  std::string a;  ///< the baseline
  std::string b;  ///< the run judged against it
  std::string output = "text";
  statistics::CompareLimits limits;
};

/// Throws UsageError (exit 2) for an unknown flag, a bad format or threshold, or no file.
ReportCommand parse_report_options(std::span<const char* const> args);

/// The files `command` writes (--save, -e, --html), each with its flag.
std::vector<NamedFile> outputs_of(const ReportCommand& command);

/// Throws UsageError for an unknown flag, other than two files, or a bound that is not a
/// percentage from 0 (`10%` or `10`; errors in percentage points).
CompareCommand parse_compare_options(std::span<const char* const> args);

/// `report`'s and `compare`'s usage lines, for --help and the errors.
std::string report_usage();
std::string compare_usage();

}  // namespace stampede::cmd
