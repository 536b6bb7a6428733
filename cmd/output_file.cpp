// OutputFile: checked at the start, written at the end or as the run goes.
#include "cmd/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "cmd/options.hpp"

namespace stampede::cmd {

OutputFile::OutputFile(std::string path, std::string_view flag)
    : path_(std::move(path)), out_(path_, std::ios::binary | std::ios::trunc) {
  if (!out_) {
    throw UsageError(std::string(flag) + ": cannot write '" + path_ + "': " + std::strerror(errno));
  }
}

void OutputFile::write(const std::string& text) {
  append(text);
  close();
}

void OutputFile::close() {
  out_.close();
  if (!out_) throw std::runtime_error("cannot write '" + path_ + "'");
}

}  // namespace stampede::cmd
