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

/// Throws UsageError, naming the limit and what to do, when `users` users that each hold one
/// connection to each of `servers` servers cannot fit in `machine`.
void check_fits(std::uint64_t users, std::uint64_t servers, const Machine& machine);

}  // namespace stampede::cmd
