// OutputFile: a file a run writes (ab's -e at its end, -g as it goes), opened before anything
// is sent.
#pragma once

#include <fstream>
#include <string>
#include <string_view>

namespace stampede::cmd {

/// Opened (created, or emptied) before the run, so that a path it cannot write is a usage
/// error with nothing sent, rather than a lost result after the run.
class OutputFile {
 public:
  /// Throws UsageError naming `flag` and `path` when it cannot be opened for writing.
  OutputFile(std::string path, std::string_view flag);

  /// Writes `text` and closes the file; throws std::runtime_error if that fails (a full disk).
  void write(const std::string& text);
  /// Adds `text`, throwing nothing (it is called from the engine's thread): a failure shows at
  /// close().
  void append(std::string_view text) { out_ << text; }
  /// Closes the file; throws std::runtime_error if a write failed.
  void close();

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace stampede::cmd
