// Files a curl command names (@file, <file, -T file, cookie files), read as curl reads them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "curl/parse_error.hpp"
#include "curl/shell_words.hpp"

namespace stampede::curl {

/// Where one curl command's files come from: names relative to the curl file's folder, and `-`
/// (curl's standard input) from the command's here-string, here-document or `< file`.
class Files {
 public:
  explicit Files(std::filesystem::path base, std::optional<Input> input = std::nullopt)
      : base_(std::move(base)), input_(std::move(input)) {}

  /// Reads `name` whole, or the command's input for `-`. Throws ParseError at `where` naming
  /// the file when it cannot be read, or for `-` when the command is given no input.
  [[nodiscard]] std::string read(const std::string& name, Position where) const;

  /// When the file `name` was last changed (seconds since 1970), or nullopt when no such file.
  [[nodiscard]] std::optional<long long> modified(const std::string& name) const;

  /// Every file read or looked at so far (a command's input file included), as found: the
  /// files an output of the run must not overwrite.
  [[nodiscard]] const std::vector<std::filesystem::path>& named() const { return named_; }

 private:
  std::string read_file(const std::string& name, Position where) const;
  std::filesystem::path full_path(const std::string& name) const;

  std::filesystem::path base_;
  std::optional<Input> input_;
  // Kept by const readers: what was read is a record of the reading, not a change of the files.
  mutable std::vector<std::filesystem::path> named_;
};

}  // namespace stampede::curl
