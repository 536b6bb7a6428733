// check_fits(): a run that cannot hold its connections is refused before it starts, saying why.
#include "cmd/capacity.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

std::string refusal(const Demand& demand, const Machine& machine) {
  try {
    check_fits(demand, machine);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "fits";
}

const std::string raise_open_files =
    " can be open (the hard limit, ulimit -Hn): use fewer users, or raise that limit (nofile in "
    "/etc/security/limits.conf, LimitNOFILE= for a systemd service, ulimit -Hn as root)";

TEST(CheckFits, OpenFilesBoundUsersTimesServers) {
  const Machine machine{20000, 28232, 8ULL << 30};
  EXPECT_EQ(refusal({19936, 1}, machine), "fits");  // 64 descriptors are kept for the rest
  EXPECT_EQ(refusal({19937, 1}, machine),
            "-c 19937 needs about 20001 open files (a socket per user and server) but at most "
            "20000" +
                raise_open_files);
  EXPECT_EQ(refusal({5000, 4}, machine).substr(0, 34), "-c 5000 needs about 20064 open fil");
}

TEST(CheckFits, SharedConnectionsBoundPortsAndFilesNotUsers) {
  const Machine machine{20000, 28232, 64ULL << 30};
  EXPECT_EQ(refusal({1'000'000, 1, 0, 10}, machine), "fits");  // -c 1000000 -m 10
  EXPECT_TRUE(refusal({100'000, 1, 0, 28233}, machine)
                  .starts_with("-m 28233 needs 28233 local ports (the shared connections to each "
                               "server) but /proc"));
  EXPECT_EQ(refusal({100'000, 2, 0, 10'000}, machine),
            "-m 10000 needs about 20064 open files (a socket per shared connection and server) "
            "but at most 20000 can be open (the hard limit, ulimit -Hn): use fewer connections "
            "(-m), or raise that limit (nofile in /etc/security/limits.conf, LimitNOFILE= for a "
            "systemd service, ulimit -Hn as root)");
  EXPECT_EQ(refusal({5, 1, 0, 30'000}, machine), "fits");  // -m above -c: one a user
}

TEST(CheckFits, LocalPortsBoundUsersPerServer) {
  const Machine machine{1'000'000, 28232, 64ULL << 30};
  EXPECT_EQ(refusal({28232, 3}, machine), "fits");  // each server is its own destination
  EXPECT_EQ(refusal({28233, 1}, machine),
            "-c 28233 needs 28233 local ports (a connection per user to each server) but "
            "/proc/sys/net/ipv4/ip_local_port_range offers 28232: use fewer users, widen that "
            "range, or add source addresses with --source-ips (addresses of this machine, such "
            "as 127.0.0.2-127.0.0.9 for a server on loopback)");
}

TEST(CheckFits, SourceAddressesEachAddAPortRange) {
  const Machine machine{100'000'000, 28232, 1ULL << 40};
  EXPECT_EQ(refusal({28233, 1, 2}, machine), "fits");
  EXPECT_EQ(refusal({225856, 2, 8}, machine), "fits");  // 8 x 28232, to each of two servers
  EXPECT_EQ(refusal({225857, 1, 8}, machine),
            "-c 225857 needs 225857 local ports (a connection per user to each server) but "
            "/proc/sys/net/ipv4/ip_local_port_range offers 28232 for each of 8 source addresses "
            "(225856): use fewer users, widen that range, or add source addresses to --source-ips "
            "(addresses of this machine, such as 127.0.0.2-127.0.0.9 for a server on loopback)");
  EXPECT_EQ(refusal({28232, 1, 1}, machine), "fits");  // one address: one range, as without
  EXPECT_TRUE(refusal({28233, 1, 1}, machine)
                  .starts_with("-c 28233 needs 28233 local ports (a connection per user to each "
                               "server) but /proc/sys/net/ipv4/ip_local_port_range offers 28232 "
                               "for its one source address: use fewer users"));
}

TEST(CheckFits, PortsAreCheckedBeforeOpenFiles) {
  // The goal run on this machine: 50,000 users, 8 source addresses, 20,000 open files. The
  // addresses lift the port bound; the descriptors still refuse it, and say what to change.
  const Machine machine{20000, 28232, 8ULL << 30};
  EXPECT_EQ(refusal({50000, 1, 8}, machine),
            "-c 50000 needs about 50064 open files (a socket per user and server) but at most "
            "20000" +
                raise_open_files);
  EXPECT_EQ(refusal({50000, 1}, machine).substr(0, 40), "-c 50000 needs 50000 local ports (a conn");
}

TEST(CheckFits, MemoryRefusesOnlyWhatClearlyCannotFit) {
  const Machine machine{10'000'000, 65535, 256ULL << 20};  // 256 MiB
  EXPECT_EQ(refusal({65535, 1}, machine), "fits");         // 256 MiB at 4 KiB a connection
  EXPECT_EQ(refusal({65535, 2}, machine),
            "-c 65535 needs more than 511 MiB for its connections (4 KiB each at least) but this "
            "machine has 256 MiB: use fewer users");
}

TEST(CheckFits, UnknownLimitsAreNotChecked) {
  EXPECT_EQ(refusal({10'000'000, 100}, Machine{}), "fits");
}

// --rate's default cap: the most users check_fits accepts, and not one more.
TEST(MostUsers, IsTheLargestRunThatFits) {
  const Machine files{20000, 28232, 8ULL << 30};
  EXPECT_EQ(most_users({0, 1}, files), 19936U);
  EXPECT_EQ(most_users({0, 2}, files), 9968U);
  EXPECT_EQ(refusal({most_users({0, 2}, files), 2}, files), "fits");
  EXPECT_NE(refusal({most_users({0, 2}, files) + 1, 2}, files), "fits");
  const Machine ports{1'000'000, 28232, 64ULL << 30};
  EXPECT_EQ(most_users({0, 1}, ports), 28232U);
  EXPECT_EQ(most_users({0, 1, 3}, ports), 3 * 28232U);  // each source address a port range
  const Machine memory{10'000'000, 65535, 256ULL << 20};
  EXPECT_EQ(most_users({0, 2}, memory), 32768U);
  EXPECT_EQ(most_users({0, 1, 0, 10}, Machine{}), UINT64_MAX);  // nothing known bounds it
}

TEST(ThisMachine, ReadsTheLimitsAndLiftsTheSoftOne) {
  const auto machine = this_machine();
  ASSERT_TRUE(machine.local_ports.has_value());  // Linux has /proc/sys/net/ipv4
  EXPECT_GT(*machine.local_ports, 0U);
  EXPECT_GT(machine.memory_bytes.value_or(0), 0U);
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  EXPECT_EQ(limit.rlim_cur, limit.rlim_max);
  if (machine.open_files) {
    EXPECT_EQ(*machine.open_files, limit.rlim_max);
  }
}

}  // namespace
}  // namespace stampede::cmd
