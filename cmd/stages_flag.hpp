// parse_stages(): --stages as people type it, 30s:100,60s:500,30s:0.
#pragma once

#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace stampede::cmd {

/// --stages as given: users, or requests a second.
struct StagesFlag {
  std::vector<model::Stage> stages;
  bool per_second = false;  ///< the targets are requests a second (N/s), not users
};

/// `text` as comma-separated DURATION:TARGET stages (durations as parse_duration() takes them,
/// targets whole numbers of users from 0 to limits::max_users, or all of them N/s: requests a
/// second up to limits::max_rate), at most 1000 stages, the stages a year at most in all, and
/// some stage above 0. Anything else throws UsageError naming the stage.
StagesFlag parse_stages(std::string_view text);

}  // namespace stampede::cmd
