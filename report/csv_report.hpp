// --output csv: one row a second (or a sweep's steps), for a spreadsheet or a plotting script.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"
#include "server/sweep/sweep_result.hpp"

namespace stampede::report {

/// A header line, then one line a second of the run, as the live table's rows (docs/
/// json-report.md, "CSV"): elapsed_s, users, succeeded, failed, rps, min/mean/p99/max ms,
/// received bytes a second, status codes as "200:98;503:2" (no comma in it, so no quoting).
std::string csv_report(const statistics::Summary& summary);

/// A header line, then one line a step of every target: url, level, qps, latencies, errors.
std::string csv_sweep(const server::sweep::SweepResult& sweep);

/// ab's -e file: "Percentage served,Time in ms", then the latency at each whole percentile
/// 0 to 99 (0 is the shortest).
std::string percentiles_csv(const statistics::Summary& summary);

}  // namespace stampede::report
