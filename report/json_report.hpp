// The machine-readable report: one JSON document per run, fields documented in docs/json-report.md.
#pragma once

#include <string>
#include <vector>

#include "server/statistics/summary.hpp"

namespace stampede::report {

using statistics::Summary;

/// The run as pretty-printed JSON (2-space indent, fields in a fixed order, ending in '\n').
/// Every number is finite: an empty run gives zeros, never null.
std::string json_report(const Summary& summary);

/// The dashboard's parts of it, each on one line: the report without its seconds (`per_second`,
/// `connections.per_second`), and its seconds from `from` on, each a JSON object (a run of
/// long-lived connections' with its `connections.per_second` entry as `connections`).
std::string json_report_without_seconds(const Summary& summary);
std::vector<std::string> json_seconds(const Summary& summary, std::size_t from);

}  // namespace stampede::report
