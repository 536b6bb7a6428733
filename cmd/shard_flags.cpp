// --shard's slice of a plan, --start-at's instant and the run's id.
#include "cmd/shard_flags.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <memory>
#include <span>

#include "cmd/limits.hpp"

namespace stampede::cmd {
namespace {

/// Shard `index`'s share of `total` things split over `count`: the remainder to the first ones.
std::uint64_t share_of(std::uint64_t total, unsigned index, unsigned count) {
  return total / count + (index < total % count ? 1 : 0);
}

/// The things of the shards before `index`: where its own are numbered from.
std::uint64_t first_of(std::uint64_t total, unsigned index, unsigned count) {
  return std::uint64_t{index} * (total / count) + std::min<std::uint64_t>(index, total % count);
}

/// The shard's share of a count that must not come to 0 on any shard (where 0 means "no limit"
/// or "none"): the last shard gets the least.
std::uint64_t split(std::uint64_t total, const ShardPosition& shard, const char* what) {
  if (total > 0 && total < shard.count) {
    throw UsageError(std::string(what) + " " + std::to_string(total) + " cannot be split over " +
                     std::to_string(shard.count) + " shards (each needs at least 1)");
  }
  return share_of(total, shard.index, shard.count);
}

/// A whole number from `text` that is all of it, within [low, high].
std::optional<unsigned> whole(std::string_view text, unsigned low, unsigned high) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < low || value > high) {
    return std::nullopt;
  }
  return value;
}

ShardPosition position_of(std::string_view text) {
  const auto slash = text.find('/');
  const auto count = whole(text.substr(slash + 1), 1, max_shards);
  const auto number = slash == std::string_view::npos || !count
                          ? std::nullopt
                          : whole(text.substr(0, slash), 0, *count);
  if (number == 0U) {
    throw UsageError("--shard counts from 1, as Playwright's and Jest's do: the first of " +
                     std::to_string(*count) + " shards is --shard 1/" + std::to_string(*count));
  }
  if (!number) {
    throw UsageError("--shard takes I/N: this process is shard I (1 to N) of N shards, N up to " +
                     std::to_string(max_shards) + " (as in --shard 1/4)");
  }
  return {*number - 1, *count, {}, {}};
}

/// `text` from `at` as `digits` digits, within [low, high].
int date_field(std::string_view text, std::size_t at, std::size_t digits, int low, int high,
               bool& ok) {
  int value = 0;
  const auto* begin = text.data() + std::min(at, text.size());
  const auto* end = text.data() + std::min(at + digits, text.size());
  const auto [stop, error] = std::from_chars(begin, end, value);
  ok = ok && error == std::errc{} && stop == begin + digits && value >= low && value <= high;
  return value;
}

/// The offset at the end of an RFC 3339 time (Z, +HH:MM, -HH:MM) from `at`.
std::chrono::minutes offset_of(std::string_view text, std::size_t at, bool& ok) {
  if (at >= text.size()) {  // no offset at all
    ok = false;
    return {};
  }
  if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) {
    ok = ok && at + 1 == text.size();
    return {};
  }
  ok = ok && at + 6 == text.size() && (text[at] == '+' || text[at] == '-') && text[at + 3] == ':';
  const auto minutes = std::chrono::hours(date_field(text, at + 1, 2, 0, 23, ok)) +
                       std::chrono::minutes(date_field(text, at + 4, 2, 0, 59, ok));
  return text[at] == '-' ? -minutes : minutes;
}

/// A rate's users, started as its schedule needs them up to the cap: numbered on from the caps of
/// the shards before, or, when the cap is sized later from the shard's rate (no -c), from a
/// block of limits::max_users of the shard's own, so no two shards' users share a seed.
void split_rate_users(model::Plan& plan, const ShardPosition& shard, bool users_given) {
  if (!users_given) {
    plan.first_user = std::uint64_t{shard.index} * limits::max_users;
    return;
  }
  plan.first_user = first_of(plan.users, shard.index, shard.count);
  plan.users = split(plan.users, shard, "-c (the requests in flight)");
}

}  // namespace

std::optional<ShardPosition> shard_position(const Options& options, const char* job_index) {
  if (!options.shard.empty() && options.shards != 0) {
    throw UsageError("--shard I/N and --shards N both say which shard this is: give one");
  }
  std::optional<ShardPosition> position;
  if (!options.shard.empty()) position = position_of(options.shard);
  if (options.shards != 0) {
    if (options.shards < 1 || options.shards > max_shards) {
      throw UsageError("--shards must be a whole number of shards from 1 to " +
                       std::to_string(max_shards));
    }
    const auto count = static_cast<unsigned>(options.shards);
    const auto index = job_index ? whole(job_index, 0, count - 1) : std::nullopt;
    if (!index) {
      throw UsageError(
          "--shards " + std::to_string(count) + " takes this shard's index from " +
          "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job sets it), which is " +
          (job_index ? "'" + std::string(job_index) + "', not 0 to " + std::to_string(count - 1)
                     : std::string("not set")) +
          ": give --shard I/" + std::to_string(count) + " instead");
    }
    position = ShardPosition{*index, count, {}, {}};
  }
  if (position) {
    position->run = options.run_id;
    position->plan = options.plan;
  }
  return position;
}

std::chrono::system_clock::time_point parse_instant(std::string_view text, std::string_view flag) {
  using namespace std::chrono;
  bool ok = text.size() >= 20 && text[4] == '-' && text[7] == '-' &&
            (text[10] == 'T' || text[10] == 't') && text[13] == ':' && text[16] == ':';
  const year_month_day date{year(date_field(text, 0, 4, 1970, 9999, ok)),
                            month(static_cast<unsigned>(date_field(text, 5, 2, 1, 12, ok))),
                            day(static_cast<unsigned>(date_field(text, 8, 2, 1, 31, ok)))};
  auto at = sys_days(date) + hours(date_field(text, 11, 2, 0, 23, ok)) +
            minutes(date_field(text, 14, 2, 0, 59, ok)) +
            seconds(date_field(text, 17, 2, 0, 60, ok));
  std::size_t end = 19;
  nanoseconds fraction{0};
  if (ok && end < text.size() && text[end] == '.') {
    auto scale = nanoseconds(seconds(1)).count();
    for (++end; end < text.size() && text[end] >= '0' && text[end] <= '9'; ++end) {
      scale /= 10;
      fraction += nanoseconds((text[end] - '0') * scale);
    }
    ok = ok && scale < nanoseconds(seconds(1)).count();  // a digit after the point
  }
  const auto offset = offset_of(text, end, ok);
  if (!ok || !date.ok()) {
    throw UsageError(std::string(flag) +
                     " takes a time as RFC 3339 writes it: 2026-12-01T10:00:00Z (UTC) or "
                     "2026-12-01T11:00:00+01:00");
  }
  return time_point_cast<system_clock::duration>(at + fraction - offset);
}

namespace {

/// 12 hex digits of the SHA-256 of `words` without those that start as one of `apart`.
std::string digest_without(const std::vector<std::string>& words,
                           std::span<const char* const> apart) {
  std::string text;
  for (const auto& word : words) {
    if (std::none_of(apart.begin(), apart.end(),
                     [&word](const char* flag) { return word.starts_with(flag); })) {
      text += word;
      text += '\0';
    }
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned size = 0;
  EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr);
  std::string id;
  for (std::size_t i = 0; i < 6; ++i) {  // 12 hex digits tell a team's runs apart
    std::array<char, 3> hex{};
    std::snprintf(hex.data(), hex.size(), "%02x", digest[i]);
    id += hex.data();
  }
  return id;
}

}  // namespace

std::string derived_run_id(const std::vector<std::string>& words) {
  static constexpr std::array apart{
      "--shard=",   "--shards=", "--save=",       "--html=",   "--percentiles-csv=",
      "--gnuplot=", "--output=", "--prometheus=", "--run-id=", "--told-at="};
  return digest_without(words, apart);
}

std::string plan_digest(const std::vector<std::string>& words) {
  static constexpr std::array apart{
      "--shard=",  "--shards=",     "--save=",   "--html=",    "--percentiles-csv=", "--gnuplot=",
      "--output=", "--prometheus=", "--run-id=", "--told-at=", "--start-at="};
  return digest_without(words, apart);
}

void slice_plan(model::Plan& plan, const ShardPosition& shard, bool users_given) {
  const bool rate = plan.rate > 0;
  if (plan.stages.empty()) {
    if (rate) {
      split_rate_users(plan, shard, users_given);
    } else {
      plan.first_user = first_of(plan.users, shard.index, shard.count);
      plan.users = split(plan.users, shard, "-c");
    }
    plan.rate /= shard.count;
    plan.rate_rounds = split(plan.rate_rounds, shard, "--rate's -n");
  } else {
    std::uint64_t peak = 0;
    std::uint64_t first = 0;
    for (auto& stage : plan.stages) {
      first = std::max(first, first_of(stage.target, shard.index, shard.count));
      stage.target = share_of(stage.target, shard.index, shard.count);
      peak = std::max(peak, stage.target);
    }
    if (peak == 0) {
      throw UsageError("--stages' peak cannot be split over " + std::to_string(shard.count) +
                       " shards (each needs at least 1 " + (rate ? "request a second)" : "user)"));
    }
    if (rate) {
      plan.rate = static_cast<double>(peak);
      split_rate_users(plan, shard, users_given);
    } else {
      plan.first_user = first;
      plan.users = peak;
    }
  }
  plan.connect_rate = split(plan.connect_rate, shard, "--connect-rate");
  plan.connections = split(plan.connections, shard, "-m");
  auto& addresses = plan.source_addresses;
  const auto from = first_of(addresses.size(), shard.index, shard.count);
  const auto count = split(addresses.size(), shard, "--source-ips' addresses");
  addresses = {addresses.begin() + static_cast<std::ptrdiff_t>(from),
               addresses.begin() + static_cast<std::ptrdiff_t>(from + count)};
  if (plan.data && plan.data->mode != model::DataMode::per_user) {
    const auto& rows = plan.data->rows;
    const auto begin =
        rows.begin() + static_cast<std::ptrdiff_t>(first_of(rows.size(), shard.index, shard.count));
    const auto taken = split(rows.size(), shard, "--data-file's rows");
    plan.data = std::make_shared<const model::DataRows>(model::DataRows{
        plan.data->columns, {begin, begin + static_cast<std::ptrdiff_t>(taken)}, plan.data->mode});
  }
}

}  // namespace stampede::cmd
