// this_machine() and check_fits(): a run that cannot hold its connections is refused up front,
// rather than counted as thousands of connect failures or killed for want of memory.
#include "cmd/capacity.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "cmd/options.hpp"

namespace stampede::cmd {

namespace {

/// Descriptors the run needs besides its sockets: stdio, the event loops, the resolver.
constexpr std::uint64_t reserved_files = 64;
/// Below what one open connection costs (4.5 KB measured over HTTP/1.1, 31 KB over HTTP/2, in
/// docs/benchmarks.md): a run is refused only when it clearly cannot fit.
constexpr std::uint64_t bytes_per_connection = 4096;

std::optional<std::uint64_t> open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return std::nullopt;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_max == RLIM_INFINITY) return std::nullopt;
  return limit.rlim_max;
}

std::optional<std::uint64_t> local_ports() {
  std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  if (!(range >> low >> high) || high < low) return std::nullopt;
  return high - low + 1;
}

std::optional<std::uint64_t> physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::nullopt;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

}  // namespace

Machine this_machine() { return {open_file_limit(), local_ports(), physical_memory()}; }

void check_fits(std::uint64_t users, std::uint64_t servers, const Machine& machine) {
  const auto c = "-c " + std::to_string(users);
  // A connection to one server needs a local port of its own; each user holds one per server.
  if (machine.local_ports && users > *machine.local_ports) {
    throw UsageError(c + " needs " + std::to_string(users) +
                     " local ports (a connection per user to each server) but "
                     "/proc/sys/net/ipv4/ip_local_port_range offers " +
                     std::to_string(*machine.local_ports) +
                     ": use fewer users, or widen that range");
  }
  const auto connections = users * servers;
  if (machine.open_files && connections + reserved_files > *machine.open_files) {
    throw UsageError(c + " needs about " + std::to_string(connections + reserved_files) +
                     " open files (a socket per user and server) but at most " +
                     std::to_string(*machine.open_files) +
                     " can be open (ulimit -Hn): use fewer users, or raise that limit");
  }
  const auto bytes = connections * bytes_per_connection;
  if (machine.memory_bytes && bytes > *machine.memory_bytes) {
    throw UsageError(c + " needs more than " + std::to_string(bytes >> 20) +
                     " MiB for its connections (4 KiB each at least) but this machine has " +
                     std::to_string(*machine.memory_bytes >> 20) + " MiB: use fewer users");
  }
}

}  // namespace stampede::cmd
