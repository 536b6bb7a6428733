// parse_stages(): DURATION:TARGET pairs, each checked, and the whole checked as a run.
#include "cmd/stages_flag.hpp"

#include <charconv>
#include <chrono>
#include <string>
#include <utility>

#include "cmd/duration_flag.hpp"
#include "cmd/limits.hpp"
#include "cmd/options.hpp"

namespace stampede::cmd {

namespace {

/// A run of stages past this many is a script, not a flag.
constexpr std::size_t max_stages = 1000;

[[noreturn]] void refuse_stage(std::string_view stage, const std::string& why) {
  throw UsageError("--stages: '" + std::string(stage) + "' " + why +
                   " (stages are DURATION:USERS, as in --stages 30s:100,60s:500,30s:0, or "
                   "DURATION:REQUESTS/s, as in --stages 30s:1000/s,60s:1000/s)");
}

/// One stage, and whether its target is a rate (N/s).
std::pair<model::Stage, bool> parse_stage(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    refuse_stage(text, "has no ':' between its length and target");
  auto target = text.substr(colon + 1);
  const bool per_second = target.ends_with("/s");
  if (per_second) target.remove_suffix(2);
  model::Stage stage{parse_duration(text.substr(0, colon), "--stages"), 0};
  const auto* const end = target.data() + target.size();
  const auto [rest, error] = std::from_chars(target.data(), end, stage.target);
  const auto most = static_cast<std::uint64_t>(per_second ? limits::max_rate : limits::max_users);
  if (target.empty() || error != std::errc() || rest != end || stage.target > most) {
    refuse_stage(text, per_second
                           ? "needs a whole number of requests a second from 0 to 10000000"
                           : "needs a whole number of users from 0 to 10000000 after the ':'");
  }
  return {stage, per_second};
}

}  // namespace

StagesFlag parse_stages(std::string_view text) {
  StagesFlag flag;
  auto& stages = flag.stages;
  std::chrono::milliseconds total{0};
  bool anyone = false;
  for (std::size_t from = 0; from <= text.size();) {
    auto comma = text.find(',', from);
    if (comma == std::string_view::npos) comma = text.size();
    const auto piece = text.substr(from, comma - from);
    const auto [stage, per_second] = parse_stage(piece);
    if (!stages.empty() && per_second != flag.per_second) {
      refuse_stage(
          piece, "mixes users and requests a second: give every target as N, or every one as N/s");
    }
    flag.per_second = per_second;
    stages.push_back(stage);
    total += stage.duration;
    anyone = anyone || stage.target > 0;
    from = comma + 1;
  }
  if (stages.size() > max_stages) refuse_stage(text, "has more than 1000 stages");
  if (total > std::chrono::duration<double>(limits::max_seconds)) {
    refuse_stage(text, "lasts more than a year in all");
  }
  if (!anyone) refuse_stage(text, "never asks for anything: give some stage a target above 0");
  return flag;
}

}  // namespace stampede::cmd
