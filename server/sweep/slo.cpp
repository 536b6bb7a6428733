// Slo: each bound checked against a step's figures, and said back in the flag's own words.
#include "server/sweep/slo.hpp"

#include <array>
#include <cstdio>

namespace stampede::server::sweep {

namespace {

/// A bound as typed (`%g`), or a measured figure to four significant digits (99.69%, 120.3 ms).
std::string number(double value, const char* format = "%g") {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), format, value);
  return text.data();
}

constexpr auto measured = "%.4g";

std::string name_of(const LatencyBound& bound) {
  return bound.percentile > 0 ? "p" + number(bound.percentile) : "mean";
}

double figure(const StepFigures& step, const LatencyBound& bound) {
  if (bound.percentile >= 99) return step.p99_ms;
  if (bound.percentile >= 90) return step.p90_ms;
  if (bound.percentile >= 50) return step.p50_ms;
  return step.mean_ms;
}

}  // namespace

std::optional<std::string> Slo::broken_by(const StepFigures& step) const {
  for (const auto& bound : latency) {
    const double value = figure(step, bound);
    if (value >= bound.below_ms) {
      return name_of(bound) + " " + number(value, measured) + " ms >= " + number(bound.below_ms) +
             " ms";
    }
  }
  if (errors_below && step.error_share >= *errors_below) {
    return "errors " + number(step.error_share * 100, measured) +
           "% >= " + number(*errors_below * 100) + "%";
  }
  return std::nullopt;
}

std::string Slo::text() const {
  std::string text;
  for (const auto& bound : latency) {
    text += (text.empty() ? "" : ",") + name_of(bound) + "<" + number(bound.below_ms) + "ms";
  }
  if (errors_below)
    text += (text.empty() ? "" : ",") + ("errors<" + number(*errors_below * 100) + "%");
  return text;
}

}  // namespace stampede::server::sweep
