// Request bodies from -d, --data-binary, --data-raw, --data-urlencode and --json, as curl joins
// them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "curl/command.hpp"

namespace stampede::curl {

/// curl's URL encoding for --data-urlencode: letters, digits and `-._~` stay, a space becomes
/// `+`, every other byte `%XX` (upper-case hex).
std::string url_encode(std::string_view text);

/// The data pieces, each resolved (files read, encoded) and joined: `&` before every piece but
/// the first, except before a --json piece. Relative files are found from `base`.
std::string join_data(const std::vector<DataArgument>& data, const std::filesystem::path& base);

}  // namespace stampede::curl
