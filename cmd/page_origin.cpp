// page_origin(): the command line as given, and the wall clock now.
#include "cmd/page_origin.hpp"

#include <chrono>
#include <ctime>

namespace stampede::cmd {

report::PageOrigin page_origin(std::span<const char* const> args) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char when[32];
  (void)std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return {{args.begin(), args.end()}, when};
}

}  // namespace stampede::cmd
