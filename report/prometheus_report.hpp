// --prometheus: the run so far in Prometheus's text exposition format, for a scrape.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

/// Every metric (`stampede_` names, docs in docs/reports.md, "Live metrics for Prometheus"):
/// counters of requests by outcome, responses by status, failures by kind, failed checks and bytes;
/// gauges of users running, requests in flight, connections open and elapsed time; the latency as a
/// Prometheus histogram in seconds (its buckets are stampede's, cut at fixed bounds).
std::string prometheus_text(const statistics::Summary& summary);

}  // namespace stampede::report
