// Files a curl command names (@file, <file, -T file, cookie files), read as curl reads them.
#pragma once

#include <filesystem>
#include <string>

#include "curl/parse_error.hpp"

namespace stampede::curl {

/// Reads `name` whole; a relative name is found from `base` (the curl file's folder). Throws
/// ParseError at `where` naming the file when it cannot be read, or for `-` (standard input).
std::string read_named_file(const std::filesystem::path& base, const std::string& name,
                            Position where);

}  // namespace stampede::curl
