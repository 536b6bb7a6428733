// parse_source_ips(): ranges, blocks and lists in, addresses out; each mistake refused in one line.
#include "cmd/source_ips.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cmd/options.hpp"
#include "cmd/run_config.hpp"

namespace stampede::cmd {
namespace {

std::vector<std::string> texts(std::string_view spec) {
  std::vector<std::string> out;
  for (const auto& address : parse_source_ips(spec)) out.push_back(address.to_string());
  return out;
}

std::string ips_refusal(std::string_view spec) {
  try {
    (void)parse_source_ips(spec);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "accepted";
}

using Texts = std::vector<std::string>;

TEST(SourceIps, RangesIncludeBothEnds) {
  EXPECT_EQ(texts("127.0.0.2-127.0.0.4"), (Texts{"127.0.0.2", "127.0.0.3", "127.0.0.4"}));
  EXPECT_EQ(texts("127.0.0.255-127.0.1.1"), (Texts{"127.0.0.255", "127.0.1.0", "127.0.1.1"}));
  EXPECT_EQ(texts("127.0.0.7-127.0.0.7"), (Texts{"127.0.0.7"}));
  EXPECT_EQ(texts("fd00::ffff-fd00::1:1"), (Texts{"fd00::ffff", "fd00::1:0", "fd00::1:1"}));
  EXPECT_EQ(texts(" 127.0.0.2 - 127.0.0.3 "), (Texts{"127.0.0.2", "127.0.0.3"}));
}

TEST(SourceIps, BlocksGiveTheirHostAddresses) {
  // Not the network (.0) nor the broadcast (.7) address.
  EXPECT_EQ(texts("127.0.0.0/29"),
            (Texts{"127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"}));
  EXPECT_EQ(texts("127.0.0.4/31"), (Texts{"127.0.0.4", "127.0.0.5"}));  // RFC 3021: both
  EXPECT_EQ(texts("127.0.0.9/32"), (Texts{"127.0.0.9"}));
  EXPECT_EQ(texts("fd00::/126"), (Texts{"fd00::1", "fd00::2", "fd00::3"}));  // not the anycast
  EXPECT_EQ(texts("fd00::/127"), (Texts{"fd00::", "fd00::1"}));
  EXPECT_EQ(parse_source_ips("10.0.0.0/16").size(), 65534U);
  EXPECT_EQ(parse_source_ips("fd00::/112").size(), 65535U);
}

TEST(SourceIps, SingleAddressesAndLists) {
  EXPECT_EQ(texts("127.0.0.2"), (Texts{"127.0.0.2"}));
  EXPECT_EQ(texts("127.0.0.2,127.0.0.5-127.0.0.6, 127.0.0.8/31"),
            (Texts{"127.0.0.2", "127.0.0.5", "127.0.0.6", "127.0.0.8", "127.0.0.9"}));
  EXPECT_EQ(texts("::1"), (Texts{"::1"}));
}

TEST(SourceIps, MalformedInputIsRefused) {
  const std::string example = "such as 127.0.0.2-127.0.0.9, 10.0.0.0/24 or 10.0.0.5,10.0.0.7)";
  EXPECT_EQ(ips_refusal("127.0.0.300"),
            "--source-ips '127.0.0.300' is not an IP address (" + example);
  EXPECT_EQ(ips_refusal("localhost"), "--source-ips 'localhost' is not an IP address (" + example);
  EXPECT_EQ(ips_refusal("127.0.0.2-"), "--source-ips '' is not an IP address (" + example);
  EXPECT_EQ(ips_refusal("127.0.0.2,,127.0.0.3"),
            "--source-ips has an empty item in '127.0.0.2,,127.0.0.3' (" + example);
  EXPECT_EQ(ips_refusal("127.0.0.0/33"),
            "--source-ips '127.0.0.0/33': the prefix length after / must be 0 to 32 for an IPv4 "
            "block");
  EXPECT_EQ(
      ips_refusal("fd00::/x"),
      "--source-ips 'fd00::/x': the prefix length after / must be 0 to 128 for an IPv6 block");
  EXPECT_EQ(ips_refusal("127.0.0.1/29"),
            "--source-ips '127.0.0.1/29' has host bits set (the block is 127.0.0.0/29)");
}

TEST(SourceIps, RangesGoUpWithinOneFamily) {
  EXPECT_EQ(ips_refusal("127.0.0.9-127.0.0.2"),
            "--source-ips '127.0.0.9-127.0.0.2' is reversed (give the lower address first: "
            "127.0.0.2-127.0.0.9)");
  EXPECT_EQ(ips_refusal("127.0.0.2-::1"),
            "--source-ips '127.0.0.2-::1' goes from an IPv4 address to an IPv6 one (give both "
            "ends in one family)");
  EXPECT_EQ(ips_refusal("127.0.0.2,::1"),
            "--source-ips mixes IPv4 and IPv6 addresses (a connection binds an address of its "
            "server's family: give one family)");
}

TEST(SourceIps, AtMost65536Addresses) {
  const std::string too_many =
      " makes more than 65536 addresses (each adds a port range: a few are plenty; use a smaller "
      "range or block)";
  EXPECT_EQ(parse_source_ips("10.0.0.0-10.0.255.255").size(), 65536U);
  EXPECT_EQ(ips_refusal("10.0.0.0-10.1.0.0"), "--source-ips '10.0.0.0-10.1.0.0'" + too_many);
  EXPECT_EQ(ips_refusal("10.0.0.0/15"), "--source-ips '10.0.0.0/15'" + too_many);
  EXPECT_EQ(ips_refusal("::/0"), "--source-ips '::/0'" + too_many);
  EXPECT_EQ(ips_refusal("fd00::-fd00::1:0"), "--source-ips 'fd00::-fd00::1:0'" + too_many);
  EXPECT_EQ(parse_source_ips("10.0.0.0/16,10.1.0.0/30").size(), 65536U);  // 65534 + 2
  EXPECT_EQ(ips_refusal("10.0.0.0/16,10.1.0.0/29"), "--source-ips '10.1.0.0/29'" + too_many);
}

TEST(SourceIps, EachAddressOnceAndUsable) {
  EXPECT_EQ(ips_refusal("127.0.0.2-127.0.0.5,127.0.0.4"),
            "--source-ips names 127.0.0.4 twice (give each address once)");
  const std::string not_source =
      ", which is not a source address (give addresses of this "
      "machine, such as 127.0.0.2-127.0.0.9, 10.0.0.0/24 or "
      "10.0.0.5,10.0.0.7)";
  EXPECT_EQ(ips_refusal("0.0.0.0"), "--source-ips includes 0.0.0.0" + not_source);
  EXPECT_EQ(ips_refusal("::"), "--source-ips includes ::" + not_source);
  EXPECT_EQ(ips_refusal("224.0.0.1"), "--source-ips includes 224.0.0.1" + not_source);
  EXPECT_EQ(ips_refusal("255.255.255.254-255.255.255.255"),
            "--source-ips includes 255.255.255.255" + not_source);
}

TEST(SourceIps, TheFlagReachesThePlanAsText) {
  const char* args[] = {"--source-ips", "127.0.0.2-127.0.0.3", "-u", "http://127.0.0.1/"};
  const auto options = parse_options(args);
  EXPECT_EQ(options.source_ips, "127.0.0.2-127.0.0.3");
  EXPECT_EQ(make_run_config(options).plan.source_addresses, (Texts{"127.0.0.2", "127.0.0.3"}));
  const char* without[] = {"-u", "http://127.0.0.1/"};
  EXPECT_TRUE(make_run_config(parse_options(without)).plan.source_addresses.empty());
  const char* bad[] = {"--source-ips", "127.0.0.3-127.0.0.2", "-u", "http://127.0.0.1/"};
  EXPECT_THROW(make_run_config(parse_options(bad)), UsageError);
}

}  // namespace
}  // namespace stampede::cmd
