// -p FILE: a curl file's steps, with stampede's own -u, -H, -data and -X laid over them.
#pragma once

#include <string>
#include <vector>

#include "cmd/options.hpp"
#include "model/request.hpp"

namespace stampede::cmd {

/// The steps of `options.curl_file`, in order. As in go-stress-testing, `-u` replaces each
/// step's URL, `-H` replaces or adds a header, `-data` replaces the body and `-X` the method;
/// `-k`, `-redirect` and `--insecure` apply too. What stampede does not apply as curl would is
/// appended to `warnings`, and what the user should know first (a HAR's choice of entries) to
/// `notes`. A HAR file (FILE.har) is read with --har-include and --har-exclude; its recorded
/// pauses are kept with --think har. Throws UsageError (the file's line and column, or the
/// HAR's entry) for a bad file.
std::vector<model::Request> curl_steps(const Options& options, std::vector<std::string>& warnings,
                                       std::vector<std::string>& notes);

}  // namespace stampede::cmd
