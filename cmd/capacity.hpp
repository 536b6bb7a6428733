// Whether a run fits this machine (open files, local ports, memory), checked before it starts.
#pragma once

#include <cstdint>
#include <optional>

namespace stampede::cmd {

/// What this machine lets one process hold; nullopt where it could not be read (not checked).
struct Machine {
  std::optional<std::uint64_t> open_files;    ///< the hard RLIMIT_NOFILE (the soft one is lifted)
  std::optional<std::uint64_t> local_ports;   ///< ports in ip_local_port_range
  std::optional<std::uint64_t> memory_bytes;  ///< physical memory
};

/// Lifts this process's soft open-file limit to its hard one and reads the rest of Machine.
Machine this_machine();

/// What a run asks of the machine.
struct Demand {
  std::uint64_t users = 1;    ///< -c: each holds one connection to each server
  std::uint64_t servers = 1;  ///< distinct (scheme, host, port) among the steps
  /// --source-ips addresses the connections bind to in turn; 0: the kernel picks one.
  std::uint64_t source_addresses = 0;
};

/// Throws UsageError, naming the limit and what to change, when `demand` cannot fit in
/// `machine`: local ports (per server, times the source addresses), open files, memory.
void check_fits(const Demand& demand, const Machine& machine);

}  // namespace stampede::cmd
