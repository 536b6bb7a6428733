// The live table: one fixed-width row a second while a run goes, in go-stress-testing's layout.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

using statistics::Summary;

/// The table's heading line and its separator line, each ending in '\n'.
std::string live_header();

/// One row for the run so far, ending in '\n': elapsed, users running, cumulative successes and
/// failures, QPS (completed / wall-clock elapsed), cumulative max / min / avg latency in ms, and
/// status codes ("200:9800;500:3") followed by the non-zero failure kinds that have no status
/// ("timeout:4"; not `verify`, whose responses are counted under their status).
std::string live_row(const Summary& summary);

}  // namespace stampede::report
