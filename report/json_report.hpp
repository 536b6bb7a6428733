// The machine-readable report: one JSON document per run, fields documented in docs/json-report.md.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

using statistics::Summary;

/// The run as pretty-printed JSON (2-space indent, fields in a fixed order, ending in '\n').
/// Every number is finite: an empty run gives zeros, never null.
std::string json_report(const Summary& summary);

}  // namespace stampede::report
