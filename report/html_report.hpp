// --html: one self-contained page (report/html/page.html, uPlot and page.js embedded at build
// time) that draws a run, or a sweep, from the data it carries.
#pragma once

#include <string>
#include <vector>

#include "server/statistics/summary.hpp"
#include "server/sweep/sweep_result.hpp"

namespace stampede::report {

/// Where the page came from: the command line (argv without the program name) and when it was
/// made (ISO 8601, UTC), shown at its top.
struct PageOrigin {
  std::vector<std::string> command;
  std::string generated_at;
};

/// The page of a run: its JSON report, the latency distribution (buckets and percentiles).
std::string html_report(const statistics::Summary& summary, const PageOrigin& origin);

/// The page of a sweep: its steps, side by side by target, and the knee.
std::string html_sweep(const server::sweep::SweepResult& sweep, const PageOrigin& origin);

/// The latency distribution the page draws, as JSON: {"buckets": [[low_ms, high_ms, count]...]
/// (adjacent buckets joined so there are at most `most_buckets`), "percentiles": [[percentile,
/// value_ms]...] (HdrHistogram's percentile distribution, 5 ticks a halving, to 100)}.
std::string distribution_json(const statistics::Histogram& latency, std::size_t most_buckets = 300);

}  // namespace stampede::report
