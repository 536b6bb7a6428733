// A whole run in a file (--save) and back (stampede report, compare): lossless, versioned JSON
// whose histograms are in HdrHistogram's compressed encoding; the format is docs/saved-run.md.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "server/statistics/summary.hpp"

namespace stampede::report {

/// The version of the format this stampede writes and the newest it reads.
inline constexpr int saved_run_version = 1;

/// A run a saved file holds came from: its command line, by which stampede, and when.
struct RunSource {
  std::vector<std::string> arguments;  ///< argv without the program name
  std::string stampede_version;
  std::chrono::system_clock::time_point started_at{};
  friend bool operator==(const RunSource&, const RunSource&) = default;
};

/// A saved run: the Summary the reports print, and the runs it was made of (more than one
/// once runs are merged).
struct SavedRun {
  statistics::Summary summary;
  std::vector<RunSource> sources;
};

/// Text that is not a saved run, or one of a newer format version.
class SavedRunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The file's text for `run`.
std::string saved_run_text(const SavedRun& run);

/// The run `text` holds; throws SavedRunError when it is not a saved run this version reads.
SavedRun read_saved_run(std::string_view text);

}  // namespace stampede::report
