// The entry point of curl/: a "Copy as cURL" file (or text) -> the requests it sends, in order.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "curl/parse_error.hpp"
#include "curl/shell_words.hpp"
#include "model/request.hpp"

namespace stampede::curl {

/// What a curl file asks for: its steps (one per URL of each curl command, in order: a flow
/// that each user runs from the first) and what stampede does not apply as curl would.
struct Parsed {
  std::vector<model::Request> steps;
  std::vector<std::string> warnings;  ///< each `file:line:column: text`, one line
  std::vector<std::string> notes;     ///< what the user should know that is not amiss (a HAR's
                                      ///< choice of entries), one line each
  /// The files its commands read (@file, -T, -b, -H @file, `< file`, -z's date file), as
  /// found from the curl file's folder: a run must not write over them.
  std::vector<std::filesystem::path> files;
};

/// Reads the curl file at `path`; relative @files are found from its folder, `$NAME` in this
/// process's environment. Throws ParseError
/// (file, line, column, what is wrong) for anything curl would refuse or stampede cannot send.
Parsed parse_file(const std::string& path);

/// The same for `text` already in memory: `name` names it in messages, `base` finds @files,
/// `environment` gives `$NAME`.
Parsed parse_text(std::string_view text, const std::string& name, const std::filesystem::path& base,
                  const Environment& environment = process_environment());

}  // namespace stampede::curl
