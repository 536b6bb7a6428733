// Whether a run fits this machine (open files, local ports, memory), checked before it starts.
#pragma once

#include <algorithm>

#include <cstdint>
#include <optional>
#include <string>

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
  /// -m: the connections to each server the users share (0: each user has its own); ports and
  /// open files are counted by connection, memory still by user.
  std::uint64_t shared = 0;

  /// Connections to each server: -m's, at most one a user, else one a user.
  [[nodiscard]] std::uint64_t connections() const {
    return shared > 0 ? std::min(shared, users) : users;
  }
  /// What to use fewer of, for the messages: "users", or with -m "connections (-m)".
  [[nodiscard]] std::string fewer() const { return shared > 0 ? "connections (-m)" : "users"; }
  /// The flag that sets connections(), for the messages: "-c 100" or "-m 10".
  [[nodiscard]] std::string flag() const {
    return shared > 0 ? "-m " + std::to_string(connections()) : "-c " + std::to_string(users);
  }
};

/// The most users a run shaped as `shape` (its users aside) fits in `machine`: what check_fits
/// would accept.
std::uint64_t most_users(const Demand& shape, const Machine& machine);

/// Throws UsageError, naming the limit and what to change, when `demand` cannot fit in
/// `machine`: local ports (per server, times the source addresses), open files, memory.
void check_fits(const Demand& demand, const Machine& machine);

}  // namespace stampede::cmd
