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

/// The dashboard's view of a run under way (--dashboard): the page's data, as html_report()'s,
/// without the report's seconds; those seconds apart, each a JSON object, from second `from` on
/// (those the dashboard has not had), so that its work a second does not grow with the run. A
/// run still `running` says so as its stop reason.
struct LiveView {
  std::string data;
  std::vector<std::string> seconds;
};
LiveView live_view(const statistics::Summary& summary, const PageOrigin& origin, bool running,
                   std::size_t from);

/// The page's data for a sweep (its steps, the knee), as html_sweep() draws it.
std::string sweep_data(const server::sweep::SweepResult& sweep, const PageOrigin& origin);
/// A run's data (live_view()'s) with a sweep's steps (sweep_data()'s) beside it: the dashboard
/// of a sweep draws the step under way and the steps done.
std::string with_sweep(const std::string& run, const std::string& sweep);

/// The dashboard's page: the report's page, which draws nothing until its feed
/// (`/feed?token=TOKEN`) brings the run, then redraws it each second.
std::string live_page(const PageOrigin& origin, const std::string& token);

/// The latency distribution the page draws, as JSON: {"buckets": [[low_ms, high_ms, count]...]
/// (adjacent buckets joined so there are at most `most_buckets`), "percentiles": [[percentile,
/// value_ms]...] (HdrHistogram's percentile distribution, 5 ticks a halving, to 100)}.
std::string distribution_json(const statistics::Histogram& latency, std::size_t most_buckets = 300);

}  // namespace stampede::report
