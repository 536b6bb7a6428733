// html_report(), html_sweep() and the dashboard's live_page(): the page's data as JSON, put
// between the embedded page's parts.
#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "report/html_assets.hpp"
#include "report/json_report.hpp"
#include "report/sweep_report.hpp"

namespace stampede::report {
namespace {

using Json = nlohmann::ordered_json;

std::string title_of(const statistics::RunInfo& info) {
  return info.steps.empty() ? std::string("stampede") : info.steps.front();
}

Json buckets_json(const statistics::Histogram& latency, std::size_t most_buckets) {
  const auto counts = latency.counts_by_index();  // up to the last non-zero count
  const auto lowest = static_cast<std::size_t>(
      std::find_if(counts.begin(), counts.end(), [](std::uint64_t c) { return c > 0; }) -
      counts.begin());
  // Join runs of adjacent buckets so the span from the lowest to the highest makes at most
  // most_buckets bars.
  const std::size_t span = counts.size() - std::min(lowest, counts.size());
  const std::size_t join = std::max<std::size_t>(1, (span + most_buckets - 1) / most_buckets);
  Json buckets = Json::array();
  for (std::size_t first = lowest; first < counts.size(); first += join) {
    const std::size_t last = std::min(counts.size(), first + join) - 1;
    std::uint64_t count = 0;
    for (std::size_t i = first; i <= last; ++i) count += counts[i];
    if (count == 0) continue;
    const auto low = statistics::Histogram::bucket_range(first).first;
    const auto high = statistics::Histogram::bucket_range(last).second;
    buckets.push_back({static_cast<double>(low) / 1e6, static_cast<double>(high) / 1e6, count});
  }
  return buckets;
}

/// HdrHistogram's outputPercentileDistribution levels with 5 ticks a half: 0, 10, ... 50, 55,
/// ... 75, 77.5, ... each halving of the distance to 100 in 5 steps, until a step finer than
/// one value; then 100.
Json percentiles_json(const statistics::Histogram& latency) {
  Json points = Json::array();
  if (latency.count() == 0) return points;
  constexpr int ticks = 5;
  const double finest = 100.0 / static_cast<double>(latency.count());
  for (int half = 0; half < 40; ++half) {
    const double from = 100.0 - 100.0 / std::pow(2.0, half);
    const double step = 100.0 / std::pow(2.0, half + 1) / ticks;
    if (100.0 - from < finest) break;
    for (int tick = 0; tick < ticks; ++tick) {
      const double percentile = from + step * tick;
      points.push_back({percentile, static_cast<double>(latency.percentile(percentile)) / 1e6});
    }
  }
  points.push_back({100.0, static_cast<double>(latency.max()) / 1e6});
  return points;
}

/// page.html with `data` between its data script's tags. "</" and "<!--" are written as the
/// JSON escapes "<\/" and "\u003c!--", so nothing in the data (a URL, a header) can end that
/// script; JSON.parse reads them back unchanged.
std::string page_with(const Json& data) {
  std::string text = data.dump();
  std::string escaped;
  escaped.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "</") == 0) {
      escaped += "<\\/";
      ++i;
    } else if (text.compare(i, 4, "<!--") == 0) {
      escaped += "\\u003c!--";
      i += 3;
    } else {
      escaped += text[i];
    }
  }
  std::string page;
  for (const auto part :
       {html::head, html::uplot_css, html::before_data, std::string_view(escaped), html::after_data,
        html::uplot_js, html::before_page_js, html::page_js, html::tail}) {
    page += part;
  }
  return page;
}

Json origin_json(std::string title, const PageOrigin& origin) {
  return {{"title", std::move(title)},
          {"command", origin.command},
          {"generated_at", origin.generated_at}};
}

}  // namespace

std::string distribution_json(const statistics::Histogram& latency, std::size_t most_buckets) {
  return Json{{"buckets", buckets_json(latency, most_buckets)},
              {"percentiles", percentiles_json(latency)}}
      .dump();
}

namespace {

/// The page's data for a run: its report as `report` gives it.
Json run_data(const statistics::Summary& summary, const PageOrigin& origin,
              const std::string& report) {
  Json data = origin_json(title_of(summary.info), origin);
  data["report"] = Json::parse(report);
  data["distribution"] = Json::parse(distribution_json(summary.total.latency));
  data["sweep"] = nullptr;
  return data;
}

}  // namespace

std::string html_report(const statistics::Summary& summary, const PageOrigin& origin) {
  return page_with(run_data(summary, origin, json_report(summary)));
}

LiveView live_view(const statistics::Summary& summary, const PageOrigin& origin, bool running,
                   std::size_t from) {
  Json data = run_data(summary, origin, json_report_without_seconds(summary));
  if (running) data["report"]["stop_reason"] = "running";
  return {data.dump(), json_seconds(summary, from)};
}

std::string live_page(const PageOrigin& origin, const std::string& token) {
  Json data = origin_json("live run", origin);
  data["live"] = {{"token", token}};
  return page_with(data);
}

std::string sweep_data(const server::sweep::SweepResult& sweep, const PageOrigin& origin) {
  const Json document = Json::parse(sweep_json(sweep));
  Json data = origin_json(sweep.targets.empty() ? "sweep" : "sweep of " + sweep.targets.front().url,
                          origin);
  data["report"] = nullptr;
  data["distribution"] = nullptr;
  data["sweep"] = document.at("sweep");
  if (document.contains("capacity")) data["capacity"] = document.at("capacity");
  return data.dump();
}

std::string html_sweep(const server::sweep::SweepResult& sweep, const PageOrigin& origin) {
  return page_with(Json::parse(sweep_data(sweep, origin)));
}

std::string with_sweep(const std::string& run, const std::string& sweep) {
  Json data = Json::parse(run);
  const Json steps = Json::parse(sweep);
  data["sweep"] = steps.at("sweep");
  if (steps.contains("capacity")) data["capacity"] = steps.at("capacity");
  return data.dump();
}

}  // namespace stampede::report
