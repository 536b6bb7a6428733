// this_machine() and check_fits(): a run that cannot hold its connections is refused up front,
// rather than counted as thousands of connect failures or killed for want of memory.
#include "cmd/capacity.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
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

namespace {

/// A connection to one server needs a local port of its own per source address: with
/// IP_BIND_ADDRESS_NO_PORT the kernel picks the port per (source, server) pair, so each source
/// address adds a whole port range.
void check_ports(const Demand& demand, std::uint64_t ports_per_address) {
  const auto addresses = std::max<std::uint64_t>(1, demand.source_addresses);
  const auto ports = ports_per_address * addresses;
  if (demand.connections() <= ports) return;
  auto offered = std::to_string(ports_per_address);
  if (demand.source_addresses == 1) offered += " for its one source address";
  if (demand.source_addresses > 1) {
    offered += " for each of " + std::to_string(addresses) + " source addresses (" +
               std::to_string(ports) + ")";
  }
  const auto more_addresses = demand.source_addresses == 0
                                  ? "add source addresses with --source-ips"
                                  : "add source addresses to --source-ips";
  throw UsageError(demand.flag() + " needs " + std::to_string(demand.connections()) +
                   (demand.shared > 0
                        ? " local ports (the shared connections to each server) but "
                        : " local ports (a connection per user to each server) but ") +
                   "/proc/sys/net/ipv4/ip_local_port_range offers " + offered + ": use fewer " +
                   demand.fewer() + ", widen that range, or " + more_addresses +
                   " (addresses of this machine, such as 127.0.0.2-127.0.0.9 for a server on "
                   "loopback)");
}

void check_open_files(const Demand& demand, std::uint64_t open_files) {
  const auto needed = demand.connections() * demand.servers + reserved_files;
  if (needed <= open_files) return;
  throw UsageError(demand.flag() + " needs about " + std::to_string(needed) +
                   (demand.shared > 0 ? " open files (a socket per shared connection and server)"
                                      : " open files (a socket per user and server)") +
                   " but at most " + std::to_string(open_files) +
                   " can be open (the hard limit, ulimit -Hn): use fewer " + demand.fewer() +
                   ", or raise that "
                   "limit (nofile in /etc/security/limits.conf, LimitNOFILE= for a systemd "
                   "service, ulimit -Hn as root)");
}

void check_memory(const Demand& demand, std::uint64_t memory_bytes) {
  const auto bytes = demand.users * demand.servers * bytes_per_connection;
  if (bytes <= memory_bytes) return;
  throw UsageError("-c " + std::to_string(demand.users) + " needs more than " +
                   std::to_string(bytes >> 20) +
                   " MiB for its connections (4 KiB each at least) but this machine has " +
                   std::to_string(memory_bytes >> 20) + " MiB: use fewer users");
}

}  // namespace

std::uint64_t most_users(const Demand& shape, const Machine& machine) {
  const auto servers = std::max<std::uint64_t>(1, shape.servers);
  std::uint64_t most = UINT64_MAX;
  if (shape.shared == 0 && machine.local_ports) {
    most =
        std::min(most, *machine.local_ports * std::max<std::uint64_t>(1, shape.source_addresses));
  }
  if (shape.shared == 0 && machine.open_files) {
    most = std::min(
        most, (*machine.open_files - std::min(*machine.open_files, reserved_files)) / servers);
  }
  if (machine.memory_bytes) {
    most = std::min(most, *machine.memory_bytes / (servers * bytes_per_connection));
  }
  return most;
}

void check_fits(const Demand& demand, const Machine& machine) {
  if (machine.local_ports) check_ports(demand, *machine.local_ports);
  if (machine.open_files) check_open_files(demand, *machine.open_files);
  if (machine.memory_bytes) check_memory(demand, *machine.memory_bytes);
}

}  // namespace stampede::cmd
