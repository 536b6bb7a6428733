// Flow's destinations (--source-ips reach each setup as addresses, with endpoints of their
// family) and a mix's flows, drawn by weight.
#include "server/flow.hpp"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

namespace stampede::server {
namespace {

model::Request flow_request(std::string host) {
  model::Request r;
  r.origin.host = std::move(host);
  r.origin.port = 8080;
  r.target = "/";
  return r;
}

model::Plan plan_from(std::vector<std::string> sources) {
  model::Plan plan;
  plan.source_addresses = std::move(sources);
  return plan;
}

TEST(Flow, WithoutSourceAddressesTheKernelPicks) {
  const Flow flow({flow_request("127.0.0.1")}, model::Plan{}, false);
  EXPECT_TRUE(flow.destinations()[0]->setup.sources.empty());
}

TEST(Flow, SourceAddressesReachEverySetupInOrder) {
  const Flow flow({flow_request("127.0.0.1"), flow_request("127.0.0.5")},
                  plan_from({"127.0.0.3", "127.0.0.2"}), false);
  ASSERT_EQ(flow.destinations().size(), 2U);
  for (const auto& destination : flow.destinations()) {
    const auto& sources = destination->setup.sources;
    ASSERT_EQ(sources.size(), 2U);
    EXPECT_EQ(sources[0].to_string(), "127.0.0.3");
    EXPECT_EQ(sources[1].to_string(), "127.0.0.2");
  }
}

TEST(Flow, WithoutAMixEveryRoundSendsEveryStep) {
  const Flow flow({flow_request("127.0.0.1"), flow_request("127.0.0.1")}, model::Plan{}, false);
  session::UserValues values(3);
  const auto range = flow.round_steps(values);
  EXPECT_EQ(range.first, 0U);
  EXPECT_EQ(range.count, 2U);
}

TEST(Flow, AMixsFlowsAreDrawnByWeightFromTheUsersSeed) {
  model::Plan plan;
  plan.mix = {{"a", 0, 2, 8}, {"b", 2, 1, 1}, {"c", 3, 1, 3}};
  const Flow flow({flow_request("127.0.0.1"), flow_request("127.0.0.1"), flow_request("127.0.0.1"),
                   flow_request("127.0.0.1")},
                  plan, false);
  std::array<int, 3> picked{};
  constexpr int rounds = 12'000;
  for (std::uint64_t user = 0; user < 12; ++user) {
    session::UserValues values(user);
    session::UserValues again(user);
    for (int round = 0; round < rounds / 12; ++round) {
      const auto range = flow.round_steps(values);
      EXPECT_EQ(flow.round_steps(again).first, range.first);  // a rerun draws the same
      const int index = range.first == 0 ? 0 : range.first == 2 ? 1 : 2;
      EXPECT_EQ(range.count, index == 0 ? 2U : 1U);
      ++picked[index];
    }
  }
  EXPECT_NEAR(picked[0], rounds * 8 / 12, rounds / 100);
  EXPECT_NEAR(picked[1], rounds * 1 / 12, rounds / 100);
  EXPECT_NEAR(picked[2], rounds * 3 / 12, rounds / 100);
}

TEST(Flow, OnlyEndpointsOfTheSourcesFamilyAreKept) {
  namespace ip = boost::asio::ip;
  const std::vector<ip::tcp::endpoint> both{{ip::make_address("::1"), 80},
                                            {ip::make_address("127.0.0.1"), 80}};
  const std::vector<ip::address> v4{ip::make_address("127.0.0.2")};
  const std::vector<ip::address> v6{ip::make_address("::1")};
  EXPECT_EQ(reachable_from(both, {}, "localhost"), both);
  EXPECT_EQ(reachable_from(both, v4, "localhost"), (std::vector{both[1]}));
  EXPECT_EQ(reachable_from(both, v6, "localhost"), (std::vector{both[0]}));
  try {
    (void)reachable_from({both[1]}, v6, "localhost");
    FAIL() << "an IPv4-only server was accepted with IPv6 source addresses";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()),
              "'localhost' has no IPv6 address, and --source-ips gives only IPv6 ones (give "
              "source addresses of the server's family)");
  }
}

TEST(Flow, AServerOfAnotherFamilyIsRefusedBeforeTheRun) {
  EXPECT_THROW(Flow({flow_request("127.0.0.1")}, plan_from({"::1"}), false), std::runtime_error);
}

}  // namespace
}  // namespace stampede::server
