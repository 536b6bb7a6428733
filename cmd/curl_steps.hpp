// -p FILE: a curl file's steps, with stampede's own -u, -H, -data and -X laid over them.
#pragma once

#include <string>
#include <vector>

#include "cmd/file_clash.hpp"
#include "cmd/options.hpp"
#include "model/flow_mix.hpp"
#include "model/request.hpp"

namespace stampede::cmd {

/// What the -p files send.
struct FileSteps {
  std::vector<model::Request> steps;  ///< every file's, in the order of the -p flags
  std::vector<model::FlowShare> mix;  ///< several files: each one's flow; one file: empty
  std::vector<std::string> warnings;  ///< what stampede does not apply as curl would
  std::vector<std::string> notes;     ///< what the user should know first (a HAR's choice)
  std::vector<NamedFile> inputs;      ///< the -p files and the files they read
};

/// The steps of `options.curl_files`, in order. As in go-stress-testing, `-u` replaces each
/// step's URL (moves each step of a flow, a HAR or a mix to its server), `-H` replaces or adds
/// a header, `-data` replaces the body and `-X` the method; `-k`, `-redirect` and `--insecure`
/// apply too. A HAR file (FILE.har) is read with --har-include and --har-exclude; its recorded
/// pauses are kept with --think har. Throws UsageError (the file's line and column, or the
/// HAR's entry) for a bad file.
FileSteps curl_steps(const Options& options);

}  // namespace stampede::cmd
