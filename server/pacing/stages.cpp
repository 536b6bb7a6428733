// Stages: the level at a moment, and when it next steps, in 128-bit integers (no rounding).
#include "server/pacing/stages.hpp"

#include <algorithm>
#include <utility>

namespace stampede::server::pacing {

namespace {

using Wide = unsigned __int128;

/// Whole steps taken `elapsed` into a stage of `steps` steps over `duration`.
std::uint64_t steps_taken(std::int64_t elapsed, std::uint64_t steps, std::int64_t duration) {
  return static_cast<std::uint64_t>(Wide(elapsed) * steps / static_cast<std::uint64_t>(duration));
}

/// The first moment into such a stage (from its start) at which step `step` is taken.
std::int64_t step_time(std::uint64_t step, std::uint64_t steps, std::int64_t duration) {
  const Wide d = static_cast<std::uint64_t>(duration);
  return static_cast<std::int64_t>((Wide(step) * d + steps - 1) / steps);
}

}  // namespace

Stages::Stages(std::vector<Stage> stages) : stages_(std::move(stages)) {}

std::uint64_t Stages::level_at(Nanos t) const {
  std::uint64_t level = 0;
  auto start = Nanos(0);
  for (const auto& stage : stages_) {
    if (t < start + stage.duration) {
      if (t < start) return level;
      const auto into = (t - start).count();
      const auto duration = stage.duration.count();
      return stage.target >= level ? level + steps_taken(into, stage.target - level, duration)
                                   : level - steps_taken(into, level - stage.target, duration);
    }
    level = stage.target;
    start += stage.duration;
  }
  return level;
}

std::optional<Stages::Nanos> Stages::next_change(Nanos t) const {
  std::uint64_t level = 0;
  auto start = Nanos(0);
  for (const auto& stage : stages_) {
    const auto end = start + stage.duration;
    const auto steps = stage.target >= level ? stage.target - level : level - stage.target;
    if (steps > 0 && t < end) {
      const auto into = std::max<std::int64_t>(-1, (t - start).count());
      // The next step after `into`: one past those taken by then (none before the start).
      const auto next = into < 0 ? 1 : steps_taken(into, steps, stage.duration.count()) + 1;
      if (next <= steps) return start + Nanos(step_time(next, steps, stage.duration.count()));
    }
    level = stage.target;
    start = end;
  }
  return std::nullopt;
}

Stages::Nanos Stages::length() const {
  auto total = Nanos(0);
  for (const auto& stage : stages_) total += stage.duration;
  return total;
}

std::uint64_t Stages::peak() const {
  std::uint64_t most = 0;
  for (const auto& stage : stages_) most = std::max(most, stage.target);
  return most;
}

}  // namespace stampede::server::pacing
