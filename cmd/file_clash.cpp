// refuse_clashes(): paths compared as the system resolves them, files by device and inode.
#include "cmd/file_clash.hpp"

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

namespace fs = std::filesystem;

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code error_a;
  std::error_code error_b;
  const auto resolved_a = fs::weakly_canonical(a, error_a);
  const auto resolved_b = fs::weakly_canonical(b, error_b);
  if (!error_a && !error_b && resolved_a == resolved_b) return true;
  return fs::equivalent(a, b, error_a) && !error_a;  // false when either does not exist
}

/// A device, a pipe or a terminal: each write goes out as it comes, none overwrites another.
bool is_stream(const fs::path& path) {
  std::error_code error;
  return fs::exists(path, error) && !fs::is_regular_file(path, error);
}

[[noreturn]] void refuse(const NamedFile& output, const std::string& other,
                         const char* consequence) {
  throw UsageError(output.what + " '" + output.path.string() + "' is also " + other + ": " +
                   consequence + " (name another file)");
}

}  // namespace

std::vector<NamedFile> given_files(
    std::initializer_list<std::pair<const char*, const std::string*>> flags) {
  std::vector<NamedFile> files;
  for (const auto& [flag, path] : flags) {
    if (!path->empty()) files.push_back({flag, *path});
  }
  return files;
}

void refuse_clashes(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs) {
  for (auto output = outputs.begin(); output != outputs.end(); ++output) {
    if (is_stream(output->path)) continue;
    for (const auto& input : inputs) {
      if (same_file(output->path, input.path))
        refuse(*output, input.what, "writing it would destroy it");
    }
    for (auto other = outputs.begin(); other != output; ++other) {
      if (same_file(output->path, other->path))
        refuse(*output, other->what + "'s file", "one would overwrite the other");
    }
  }
}

}  // namespace stampede::cmd
