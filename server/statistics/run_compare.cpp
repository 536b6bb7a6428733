// compare_runs(): each figure measured as --threshold measures it, so the two commands agree.
#include "server/statistics/run_compare.hpp"

#include <algorithm>

#include "server/statistics/threshold.hpp"

namespace stampede::statistics {
namespace {

double measured(const Summary& run, Figure figure, double percentile = 0) {
  Threshold threshold;
  threshold.figure = figure;
  threshold.percentile = percentile;
  return judge(threshold, run).measured;
}

/// A row whose change is relative (percent of A), judged as a rise (latency) or a drop (rps).
CompareRow relative(std::string figure, std::string unit, double a, double b,
                    std::optional<double> limit, bool drop) {
  CompareRow row{std::move(figure), std::move(unit), a, b, std::nullopt, limit, true};
  if (a > 0) row.change = (b - a) / a * 100;
  if (limit && row.change) {
    row.passed = (drop ? -*row.change : *row.change) <= *limit;
  } else if (limit) {
    row.passed = drop || b == 0;  // from A's 0 nothing drops, and any rise is past the bound
  }
  return row;
}

}  // namespace

bool RunComparison::passed() const {
  return std::all_of(rows.begin(), rows.end(), [](const CompareRow& row) { return row.passed; });
}

RunComparison compare_runs(const Summary& a, const Summary& b, const CompareLimits& limits) {
  RunComparison comparison;
  auto& rows = comparison.rows;
  rows.push_back(relative("rps", "requests/s", measured(a, Figure::rps), measured(b, Figure::rps),
                          limits.rps_drop, true));
  rows.push_back(relative("mean", "ms", measured(a, Figure::mean), measured(b, Figure::mean),
                          limits.mean_regress, false));
  const std::pair<const char*, double> percentiles[]{{"p50", 50}, {"p90", 90}, {"p99", 99}};
  const std::optional<double> percentile_limits[]{limits.p50_regress, limits.p90_regress,
                                                  limits.p99_regress};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto [name, q] = percentiles[i];
    rows.push_back(relative(name, "ms", measured(a, Figure::percentile, q),
                            measured(b, Figure::percentile, q), percentile_limits[i], false));
  }
  rows.push_back(relative("max", "ms", measured(a, Figure::max), measured(b, Figure::max),
                          limits.max_regress, false));
  CompareRow errors{"errors",
                    "%",
                    measured(a, Figure::error_share) * 100,
                    measured(b, Figure::error_share) * 100,
                    std::nullopt,
                    limits.errors_rise,
                    true};
  errors.change = errors.b - errors.a;
  if (errors.limit) errors.passed = *errors.change <= *errors.limit;
  rows.push_back(errors);
  return comparison;
}

}  // namespace stampede::statistics
