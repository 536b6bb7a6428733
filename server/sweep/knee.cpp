// find_knee(): the steps walked up until one breaks the SLO or stops scaling.
#include "server/sweep/knee.hpp"

#include <array>
#include <cstdio>
#include <utility>

namespace stampede::server::sweep {

namespace {

std::string percent(double share) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%+.1f%%", share * 100);
  return text.data();
}

}  // namespace

bool scales(const StepFigures& last, const StepFigures& next) {
  if (last.level <= 0 || last.qps <= 0) return next.qps > 0;
  const double level_growth = next.level / last.level - 1;
  const double qps_growth = next.qps / last.qps - 1;
  return qps_growth >= min_scaling * level_growth;
}

std::optional<std::string> what_breaks(const StepFigures* last, const StepFigures& next,
                                       const Slo& slo) {
  if (auto broken = slo.broken_by(next)) return broken;
  if (next.qps <= 0) return std::string("no request succeeded");
  if (last != nullptr && !scales(*last, next)) {
    return "QPS " + percent(next.qps / last->qps - 1) + " for " +
           percent(next.level / last->level - 1) + " level";
  }
  return std::nullopt;
}

Knee find_knee(const std::vector<StepFigures>& steps, const Slo& slo) {
  Knee knee;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    auto why = what_breaks(i > 0 ? &steps[i - 1] : nullptr, steps[i], slo);
    if (why) {
      knee.broke = i;
      knee.why = std::move(*why);
      return knee;
    }
    knee.step = i;
  }
  return knee;
}

}  // namespace stampede::server::sweep
