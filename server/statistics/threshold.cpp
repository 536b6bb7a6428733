// judge(), cannot_pass(): a threshold's figure read from the run's totals (or a step's).
#include "server/statistics/threshold.hpp"

#include <chrono>

#include "server/statistics/summary.hpp"

namespace stampede::statistics {

namespace {

/// The metrics a threshold reads: the run's, or its step's (nullptr past the steps).
const Metrics* metrics_of(const Threshold& threshold, const Summary& summary) {
  if (!threshold.step) return &summary.total;
  if (summary.steps.empty() && *threshold.step == 0) return &summary.total;  // one request
  return *threshold.step < summary.steps.size() ? &summary.steps[*threshold.step] : nullptr;
}

std::uint64_t errors(const Metrics& metrics, const Threshold& threshold, const Summary& summary) {
  // Requests abandoned at a stop are the run's, not a step's: they count for the whole run.
  return metrics.failed + (threshold.step ? 0 : summary.abandoned);
}

double measure(const Threshold& threshold, const Metrics& metrics, const Summary& summary) {
  const auto& latency = metrics.latency;
  switch (threshold.figure) {
    case Figure::percentile:
      return to_ms(static_cast<double>(latency.percentile(threshold.percentile)));
    case Figure::mean:
      return to_ms(latency.mean());
    case Figure::min:
      return to_ms(static_cast<double>(latency.min()));
    case Figure::max:
      return to_ms(static_cast<double>(latency.max()));
    case Figure::rps: {
      const double seconds = std::chrono::duration<double>(summary.elapsed).count();
      return seconds > 0 ? static_cast<double>(metrics.completed()) / seconds : 0;
    }
    case Figure::error_share: {
      const auto failed = errors(metrics, threshold, summary);
      const auto all = metrics.completed() + (threshold.step ? 0 : summary.abandoned);
      return all > 0 ? static_cast<double>(failed) / static_cast<double>(all) : 0;
    }
    case Figure::error_count:
      return static_cast<double>(errors(metrics, threshold, summary));
  }
  return 0;
}

const char* unit_of(Figure figure) {
  switch (figure) {
    case Figure::rps:
      return "requests/s";
    case Figure::error_share:
      return "share";
    case Figure::error_count:
      return "requests";
    default:
      return "ms";
  }
}

bool holds(Comparison comparison, double measured, double bound) {
  switch (comparison) {
    case Comparison::less:
      return measured < bound;
    case Comparison::less_equal:
      return measured <= bound;
    case Comparison::greater:
      return measured > bound;
    case Comparison::greater_equal:
      return measured >= bound;
  }
  return false;
}

}  // namespace

ThresholdVerdict judge(const Threshold& threshold, const Summary& summary) {
  ThresholdVerdict verdict{threshold.text, 0, unit_of(threshold.figure), false};
  const auto* metrics = metrics_of(threshold, summary);
  if (metrics == nullptr) return verdict;
  verdict.measured = measure(threshold, *metrics, summary);
  // A latency figure of a run where no response arrived is no evidence either way: it fails.
  const bool latency = verdict.unit == "ms";
  verdict.passed = (!latency || metrics->latency.count() > 0) &&
                   holds(threshold.comparison, verdict.measured, threshold.bound);
  return verdict;
}

bool cannot_pass(const Threshold& threshold, const Summary& summary) {
  const bool upper =
      threshold.comparison == Comparison::less || threshold.comparison == Comparison::less_equal;
  const bool grows_only =
      threshold.figure == Figure::error_count || threshold.figure == Figure::max;
  if (!upper || !grows_only) return false;
  const auto* metrics = metrics_of(threshold, summary);
  return metrics != nullptr &&
         !holds(threshold.comparison, measure(threshold, *metrics, summary), threshold.bound);
}

}  // namespace stampede::statistics
