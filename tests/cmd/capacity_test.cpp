// check_fits(): a run that cannot hold its connections is refused before it starts, saying why.
#include "cmd/capacity.hpp"

#include <gtest/gtest.h>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

std::string refusal(std::uint64_t users, std::uint64_t servers, const Machine& machine) {
  try {
    check_fits(users, servers, machine);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "fits";
}

TEST(CheckFits, OpenFilesBoundUsersTimesServers) {
  const Machine machine{20000, 28232, 8ULL << 30};
  EXPECT_EQ(refusal(19936, 1, machine), "fits");  // 64 descriptors are kept for the rest
  EXPECT_EQ(refusal(19937, 1, machine),
            "-c 19937 needs about 20001 open files (a socket per user and server) but at most "
            "20000 can be open (ulimit -Hn): use fewer users, or raise that limit");
  EXPECT_EQ(refusal(5000, 4, machine).substr(0, 34), "-c 5000 needs about 20064 open fil");
}

TEST(CheckFits, LocalPortsBoundUsersPerServer) {
  const Machine machine{1'000'000, 28232, 64ULL << 30};
  EXPECT_EQ(refusal(28232, 3, machine), "fits");  // each server is its own destination
  EXPECT_EQ(refusal(28233, 1, machine),
            "-c 28233 needs 28233 local ports (a connection per user to each server) but "
            "/proc/sys/net/ipv4/ip_local_port_range offers 28232: use fewer users, or widen that "
            "range");
}

TEST(CheckFits, MemoryRefusesOnlyWhatClearlyCannotFit) {
  const Machine machine{10'000'000, 65535, 256ULL << 20};  // 256 MiB
  EXPECT_EQ(refusal(65535, 1, machine), "fits");           // 256 MiB at 4 KiB a connection
  EXPECT_EQ(refusal(65535, 2, machine),
            "-c 65535 needs more than 511 MiB for its connections (4 KiB each at least) but this "
            "machine has 256 MiB: use fewer users");
}

TEST(CheckFits, UnknownLimitsAreNotChecked) { EXPECT_EQ(refusal(65535, 100, Machine{}), "fits"); }

TEST(ThisMachine, ReadsTheLimits) {
  const auto machine = this_machine();
  ASSERT_TRUE(machine.local_ports.has_value());  // Linux has /proc/sys/net/ipv4
  EXPECT_GT(*machine.local_ports, 0U);
  EXPECT_GT(machine.memory_bytes.value_or(0), 0U);
}

}  // namespace
}  // namespace stampede::cmd
