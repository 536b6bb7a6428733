// refuse_clashes(): no file a command writes is another file it writes or a file it reads.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace stampede::cmd {

/// A file a command reads or writes, and what names it: "--html", "-p's curl file"...
struct NamedFile {
  std::string what;
  std::filesystem::path path;
};

/// The files of `flags` that were given (a path not empty), each named by its flag.
std::vector<NamedFile> given_files(
    std::initializer_list<std::pair<const char*, const std::string*>> flags);

/// Throws UsageError (exit 2, before any file is opened) when an output is another output or
/// an input: the same path once resolved (`./a` and `a`, a link to it), or the same file (a hard
/// link). Outputs that exist and are no regular file (/dev/null) are left alone: writing to
/// them twice loses nothing.
void refuse_clashes(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs);

}  // namespace stampede::cmd
