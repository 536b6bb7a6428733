// `stampede shards`' command line: hosts, ssh, the report's flags, and the load checked first.
#include "cmd/shards_options.hpp"

#include <gtest/gtest.h>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

using namespace std::chrono_literals;

ShardsCommand parse_shards(std::vector<const char*> words) { return parse_shards_options(words); }

TEST(ShardsOptions, SplitsHostsSshAndTheLoad) {
  const auto command =
      parse_shards({"--hosts", "h1,h2,,h3", "--ssh=ssh -p 2222", "--threshold", "p99<1s",
                    "--output", "json", "--", "-c", "30", "-z", "10s", "-u", "http://127.0.0.1/"});
  EXPECT_EQ(command.hosts, (std::vector<std::string>{"h1", "h2", "h3"}));
  EXPECT_EQ(command.ssh, (std::vector<std::string>{"ssh", "-p", "2222"}));
  EXPECT_EQ(command.report_args,
            (std::vector<std::string>{"--output", "json", "--threshold", "p99<1s"}));
  EXPECT_EQ(command.load_args.size(), 6U);
  // -z 10s, -t's default 30 s, and 30 s to spare.
  ASSERT_TRUE(command.wait);
  EXPECT_EQ(*command.wait, 70s);
  EXPECT_FALSE(parse_shards({"--hosts", "h1", "--", "-c", "3", "-n", "5", "-u", "http://x/"}).wait);
}

TEST(ShardsOptions, RefusesWhatCannotRun) {
  using Words = std::vector<const char*>;
  for (const auto& words :
       {Words{"--", "-u", "http://x/"}, Words{"--hosts", "h1"}, Words{"--hosts", "h1", "--"},
        Words{"--hosts", "h1", "--bogus", "1", "--", "-u", "http://x/"},
        Words{"--hosts", "h1", "--", "-u", "http://x/", "--save", "a.stampede"},
        Words{"--hosts", "h1", "--", "-u", "http://x/", "--shard", "1/2"},
        Words{"--hosts", "h1", "--", "-c", "0", "-u", "http://x/"},
        Words{"--hosts", "h1", "--output", "yaml", "--", "-u", "http://x/"},
        Words{"--hosts", "h1", "--lead", "soon", "--", "-u", "http://x/"}}) {
    EXPECT_THROW((void)parse_shards(words), UsageError) << words.size();
  }
}

}  // namespace
}  // namespace stampede::cmd
