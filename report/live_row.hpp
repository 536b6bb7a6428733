// The live table: one fixed-width row a second while a run goes, in go-stress-testing's layout.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

using statistics::Summary;

/// The table's heading line and its separator line, each ending in '\n'. With `connections`
/// (a run of long-lived WebSocket connections), the connection columns follow the latencies;
/// with `rate` (--rate), the lag and capped columns come first.
std::string live_header(bool connections = false, bool rate = false);

/// One row for the run so far, ending in '\n': elapsed, users running, cumulative successes and
/// failures, QPS (completed / wall-clock elapsed), cumulative max / min / avg latency in ms, and
/// status codes ("200:9800;500:3") followed by the non-zero failure kinds that have no status
/// ("timeout:4"; not `verify`, whose responses are counted under their status). With
/// `connections`: connections open, opened / failed / closed by the server in the last second,
/// and the growth of the generator's resident memory since the start per open connection, in KiB.
/// A --rate run (summary.info.rate) adds, before those, the generator's lag at p99 and the
/// requests the cap (-c) held back, both so far.
std::string live_row(const Summary& summary, bool connections = false);

}  // namespace stampede::report
