// AutoSearch: the doubling, the bisection, and when to stop.
#include "server/sweep/search.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "server/sweep/knee.hpp"

namespace stampede::server::sweep {

AutoSearch::AutoSearch(SearchBounds bounds, Slo slo) : bounds_(bounds), slo_(std::move(slo)) {}

bool AutoSearch::close_enough() const {
  if (!held_) return true;  // the first level broke: nothing lower to look at
  const double low = held_->level;
  return *broke_ - low <= std::max(bounds_.whole ? 1.0 : 0.0, low * 0.1);
}

std::optional<double> AutoSearch::next() const {
  if (steps_ >= bounds_.max_steps) return std::nullopt;
  if (!broke_) {
    if (!held_) return bounds_.first;
    if (held_->level >= bounds_.most) return std::nullopt;  // held up to the top
    return std::min(held_->level * 2, bounds_.most);
  }
  if (close_enough()) return std::nullopt;
  const double middle = (held_->level + *broke_) / 2;
  return bounds_.whole ? std::floor(middle) : middle;
}

void AutoSearch::record(const StepFigures& step) {
  ++steps_;
  const auto* last = held_ ? &*held_ : nullptr;
  if (auto why = what_breaks(last, step, slo_)) {
    if (!broke_ || step.level < *broke_) {
      broke_ = step.level;
      why_ = std::move(*why);
    }
  } else {
    held_ = step;
  }
}

Knee AutoSearch::knee_in(const std::vector<StepFigures>& steps) const {
  Knee knee;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (held_ && steps[i].level == held_->level) knee.step = i;
    if (broke_ && steps[i].level == *broke_) knee.broke = i;
  }
  knee.why = why_;
  return knee;
}

}  // namespace stampede::server::sweep
