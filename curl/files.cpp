// read_named_file(): one place that turns a missing or unreadable file into a located error.
#include "curl/files.hpp"

#include <fstream>
#include <sstream>

namespace stampede::curl {

std::string read_named_file(const std::filesystem::path& base, const std::string& name,
                            Position where) {
  if (name == "-") {
    throw ParseError(where, "reading from standard input (@-) is not supported (name a file)");
  }
  const std::filesystem::path path(name);
  const auto full = path.is_absolute() ? path : base / path;
  // Only regular files: a device or a pipe (/dev/zero, /dev/stdin) would never end or block.
  std::error_code error;
  std::ifstream file;
  if (std::filesystem::is_regular_file(full, error)) file.open(full, std::ios::binary);
  if (!file.is_open() || !file) {
    throw ParseError(where, "cannot read file '" + name + "' (looked at " + full.string() + ")");
  }
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

}  // namespace stampede::curl
