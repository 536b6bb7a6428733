// Files::read(): one place that turns a missing or unreadable file into a located error.
#include "curl/files.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace stampede::curl {

std::string Files::read(const std::string& name, Position where) const {
  if (name != "-") return read_file(name, where);
  if (!input_) {
    throw ParseError(where,
                     "this command reads standard input (-), which the file does not give it "
                     "(feed it with <<< 'text', a here-document or < file)");
  }
  return input_->from_file ? read_file(input_->text, input_->where) : input_->text;
}

std::optional<long long> Files::modified(const std::string& name) const {
  struct stat status {};
  const auto full = full_path(name);
  named_.push_back(full);
  if (::stat(full.c_str(), &status) != 0) return std::nullopt;
  return status.st_mtime;
}

std::filesystem::path Files::full_path(const std::string& name) const {
  const std::filesystem::path path(name);
  return path.is_absolute() ? path : base_ / path;
}

std::string Files::read_file(const std::string& name, Position where) const {
  const auto full = full_path(name);
  named_.push_back(full);
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
