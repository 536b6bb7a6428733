// --shard's position, --start-at's instant, the run id, and each shard's slice of a plan.
#include "cmd/shard_flags.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace stampede::cmd {
namespace {

using namespace std::chrono_literals;

Options shard_flag(std::string text) {
  Options options;
  options.shard = std::move(text);
  return options;
}

Options shards_flag(std::int64_t count) {
  Options options;
  options.shards = count;
  return options;
}

TEST(ShardPosition, ReadsIndexOfCount) {
  const auto position = shard_position(shard_flag("4/8"), nullptr);  // the fourth of eight
  ASSERT_TRUE(position);
  EXPECT_EQ(position->index, 3U);
  EXPECT_EQ(position->count, 8U);
  EXPECT_FALSE(shard_position(Options{}, "2"));  // no flag: not sharded, whatever the variable
}

TEST(ShardPosition, RefusesWhatIsNoShardOfN) {
  for (const char* text :
       {"0/8", "9/8", "1/0", "-1/4", "a/4", "3", "3/", "/4", "1/10001", "1/4x"}) {
    EXPECT_THROW((void)shard_position(shard_flag(text), nullptr), UsageError) << text;
  }
}

TEST(ShardPosition, TakesTheIndexOfAnIndexedJob) {
  const auto position = shard_position(shards_flag(8), "7");
  ASSERT_TRUE(position);
  EXPECT_EQ(position->index, 7U);
  EXPECT_EQ(position->count, 8U);
  EXPECT_THROW((void)shard_position(shards_flag(8), nullptr), UsageError);
  EXPECT_THROW((void)shard_position(shards_flag(8), "8"), UsageError);
  EXPECT_THROW((void)shard_position(shards_flag(0 - 1), "0"), UsageError);
  auto both = shards_flag(8);
  both.shard = "1/8";
  EXPECT_THROW((void)shard_position(both, "1"), UsageError);
}

TEST(StartAt, ReadsRfc3339) {
  using std::chrono::system_clock;
  const auto at = parse_instant("2026-12-01T10:00:00Z");
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count(),
            1796119200);
  EXPECT_EQ(parse_instant("2026-12-01T11:30:00+01:30"), at);
  EXPECT_EQ(parse_instant("2026-12-01T09:00:00-01:00"), at);
  EXPECT_EQ(parse_instant("2026-12-01T10:00:00.25Z") - at, 250ms);
}

TEST(StartAt, RefusesOtherForms) {
  for (const char* text : {"2026-12-01 10:00:00Z", "2026-12-01T10:00:00", "2026-13-01T10:00:00Z",
                           "2026-02-30T10:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T10:00Z",
                           "2026-12-01T10:00:00.Z", "2026-12-01T10:00:00+0100", "tomorrow"}) {
    EXPECT_THROW((void)parse_instant(text), UsageError) << text;
  }
  try {
    (void)parse_instant("now", "--told-at");
    FAIL() << "read 'now'";
  } catch (const UsageError& error) {
    EXPECT_TRUE(std::string_view(error.what()).starts_with("--told-at takes a time"))
        << error.what();
  }
}

TEST(RunId, LeavesOutWhatDiffersBetweenShards) {
  const auto id = derived_run_id({"--concurrency=10", "--shard=1/4", "--save=a.stampede", "URL"});
  EXPECT_EQ(id.size(), 12U);
  EXPECT_EQ(id, derived_run_id({"--concurrency=10", "--shard=4/4", "--save=b.stampede",
                                "--output=json", "--told-at=2026-12-01T09:59:55.021Z", "URL"}));
  EXPECT_NE(id, derived_run_id(
                    {"--concurrency=10", "--shard=1/4", "--start-at=2026-12-01T10:00:00Z", "URL"}));
  EXPECT_NE(id, derived_run_id({"--concurrency=11", "--shard=1/4", "URL"}));
}

/// Every shard's slice of `plan` over `count` shards.
std::vector<model::Plan> slices(const model::Plan& plan, unsigned count, bool users_given = true) {
  std::vector<model::Plan> plans;
  for (unsigned i = 0; i < count; ++i) {
    plans.push_back(plan);
    slice_plan(plans.back(), {i, count, "run", {}}, users_given);
  }
  return plans;
}

TEST(SlicePlan, SplitsUsersWithTheRemainderFirstAndNumbersThemOn) {
  model::Plan plan;
  plan.users = 10;
  const auto plans = slices(plan, 4);
  std::vector<std::uint64_t> users;
  std::vector<std::uint64_t> firsts;
  for (const auto& p : plans) {
    users.push_back(p.users);
    firsts.push_back(p.first_user);
  }
  EXPECT_EQ(users, (std::vector<std::uint64_t>{3, 3, 2, 2}));
  EXPECT_EQ(firsts, (std::vector<std::uint64_t>{0, 3, 6, 8}));
  plan.users = 3;
  EXPECT_THROW(slices(plan, 4), UsageError);
}

TEST(SlicePlan, SplitsTheRateAndItsCount) {
  model::Plan plan;
  plan.users = 100;
  plan.rate = 1000;
  plan.rate_rounds = 10'001;
  const auto plans = slices(plan, 4);
  std::uint64_t rounds = 0;
  for (const auto& p : plans) {
    EXPECT_DOUBLE_EQ(p.rate, 250);
    EXPECT_EQ(p.users, 25U);
    rounds += p.rate_rounds;
  }
  EXPECT_EQ(rounds, 10'001U);
  // Without -c the cap is sized later, from the shard's rate.
  EXPECT_EQ(plans[3].first_user, 75U);
  plan.users = 1;
  EXPECT_EQ(slices(plan, 4, false)[3].users, 1U);
  EXPECT_EQ(slices(plan, 4, false)[3].first_user, 30'000'000U);  // a block of its own
}

TEST(SlicePlan, ScalesEachStage) {
  model::Plan plan;
  plan.stages = {{10s, 9}, {10s, 30}, {10s, 0}};
  plan.users = 30;
  const auto plans = slices(plan, 4);
  EXPECT_EQ(plans[0].stages[0].target, 3U);
  EXPECT_EQ(plans[3].stages[0].target, 2U);
  EXPECT_EQ(plans[1].stages[1].target, 8U);
  EXPECT_EQ(plans[3].users, 7U);
  EXPECT_EQ(plans[3].first_user, 23U);
  EXPECT_EQ(plans[0].stages[2].target, 0U);
  plan.stages = {{10s, 3}};
  EXPECT_THROW(slices(plan, 4), UsageError);
}

TEST(SlicePlan, SplitsRowsAndSourceAddresses) {
  model::Plan plan;
  plan.users = 8;
  plan.source_addresses = {"127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"};
  plan.data = std::make_shared<const model::DataRows>(
      model::DataRows{{"id"}, {{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}, model::DataMode::per_request});
  const auto plans = slices(plan, 2);
  EXPECT_EQ(plans[0].source_addresses,
            (std::vector<std::string>{"127.0.0.1", "127.0.0.2", "127.0.0.3"}));
  EXPECT_EQ(plans[1].source_addresses, (std::vector<std::string>{"127.0.0.4", "127.0.0.5"}));
  EXPECT_EQ(plans[0].data->rows.size(), 3U);
  EXPECT_EQ(plans[1].data->rows.front().front(), "d");
  EXPECT_THROW(slices(plan, 6), UsageError);  // 5 addresses over 6
}

TEST(SlicePlan, KeepsEveryRowForPerUserRows) {
  model::Plan plan;
  plan.users = 4;
  plan.data = std::make_shared<const model::DataRows>(
      model::DataRows{{"id"}, {{"a"}, {"b"}}, model::DataMode::per_user});
  const auto plans = slices(plan, 4);
  EXPECT_EQ(plans[3].data->rows.size(), 2U);  // user 3 keeps row 3 mod 2, as in one run
  EXPECT_EQ(plans[3].first_user, 3U);
}

}  // namespace
}  // namespace stampede::cmd
