// compare_runs(): a run (B) beside a baseline (A), figure by figure, judged against the bounds
// on how far B may regress (`stampede compare`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/statistics/summary.hpp"

namespace stampede::statistics {

/// How far B may fall behind A (`stampede compare`'s --max-* flags); each unset bound is not
/// judged.
struct CompareLimits {
  std::optional<double> mean_regress;  ///< percent B's mean latency may exceed A's
  std::optional<double> p50_regress;
  std::optional<double> p90_regress;
  std::optional<double> p99_regress;
  std::optional<double> max_regress;
  std::optional<double> rps_drop;     ///< percent B's requests a second may fall below A's
  std::optional<double> errors_rise;  ///< percentage points B's error share may exceed A's
};

/// One figure of both runs.
struct CompareRow {
  std::string figure;  ///< "rps", "mean", "p50", "p90", "p99", "max" or "errors"
  std::string unit;    ///< "requests/s", "ms" or "%"
  double a = 0;
  double b = 0;
  /// B against A: percent for rps and latencies (+ is more), percentage points for errors;
  /// nullopt where A is 0 and a percent means nothing.
  std::optional<double> change;
  std::optional<double> limit;  ///< the bound judged, as given (a regression or a drop)
  bool passed = true;           ///< true when no bound is set
};

/// Every row, rps first, then the latencies, then errors.
struct RunComparison {
  std::vector<CompareRow> rows;
  [[nodiscard]] bool passed() const;
};

/// B beside A. Latencies are the whole run's (ms); rps and errors as --threshold measures them.
RunComparison compare_runs(const Summary& a, const Summary& b, const CompareLimits& limits);

}  // namespace stampede::statistics
