// run_report(), run_compare(): saved runs read back, merged or set side by side, and judged.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "cmd/commands.hpp"
#include "cmd/options.hpp"
#include "cmd/output_file.hpp"
#include "cmd/page_origin.hpp"
#include "cmd/report_options.hpp"
#include "cmd/threshold_flag.hpp"
#include "model/version.hpp"
#include "report/compare_report.hpp"
#include "report/csv_report.hpp"
#include "report/formats.hpp"
#include "report/saved_run.hpp"
#include "server/statistics/run_merge.hpp"

namespace stampede::cmd {
namespace {

/// True when the words ask for help (-h, --help) rather than for a report.
bool wants_help(std::span<const char* const> args) {
  return std::any_of(args.begin(), args.end(), [](const char* arg) {
    return std::string_view(arg) == "-h" || std::string_view(arg) == "--help";
  });
}

/// The run in `path`; a file it cannot read or that is not a saved run is a usage error.
report::SavedRun load_saved_run(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot read it (" + std::strerror(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return report::read_saved_run(text.str());
  } catch (const report::SavedRunError& error) {
    throw UsageError(path + ": " + error.what());
  }
}

/// Every file's run as one (the file's own when there is one).
report::SavedRun merged_run(const std::vector<std::string>& files) {
  std::vector<statistics::Summary> runs;
  report::SavedRun merged;
  for (const auto& file : files) {
    auto run = load_saved_run(file);
    merged.sources.insert(merged.sources.end(), run.sources.begin(), run.sources.end());
    runs.push_back(std::move(run.summary));
  }
  try {
    merged.summary = statistics::merge_runs(runs);
  } catch (const statistics::MergeError& error) {
    throw UsageError(error.what());
  }
  return merged;
}

}  // namespace

int run_report(std::span<const char* const> args) {
  if (wants_help(args)) {
    std::printf("usage: %s\n", report_usage().c_str());
    return 0;
  }
  const auto command = parse_report_options(args);
  std::optional<OutputFile> save;
  if (!command.save_file.empty()) save.emplace(command.save_file, "--save");
  std::optional<OutputFile> percentiles;
  if (!command.percentiles_file.empty()) percentiles.emplace(command.percentiles_file, "-e");
  std::optional<OutputFile> html;
  if (!command.html_file.empty()) html.emplace(command.html_file, "--html");
  auto run = merged_run(command.files);
  auto& summary = run.summary;
  if (!command.thresholds.empty()) summary.thresholds.clear();  // judged again, on this run
  for (const auto& text : command.thresholds) {
    summary.thresholds.push_back(statistics::judge(parse_threshold(text), summary));
  }
  std::fputs(report::find_format(command.output)->render(summary).c_str(), stdout);
  if (save) save->write(report::saved_run_text(run));
  if (percentiles) percentiles->write(report::percentiles_csv(summary));
  if (html) {
    // One run's page shows its own command line; a merge's shows this report command.
    auto origin = page_origin(args);
    origin.command.insert(origin.command.begin(), "report");
    if (run.sources.size() == 1) origin.command = run.sources.front().arguments;
    html->write(report::html_report(summary, origin));
  }
  const bool failed = std::any_of(summary.thresholds.begin(), summary.thresholds.end(),
                                  [](const auto& verdict) { return !verdict.passed; });
  return failed ? exit_threshold_failed : 0;
}

int run_compare(std::span<const char* const> args) {
  if (wants_help(args)) {
    std::printf("usage: %s\n", compare_usage().c_str());
    return 0;
  }
  const auto command = parse_compare_options(args);
  const auto a = load_saved_run(command.a);
  const auto b = load_saved_run(command.b);
  const auto comparison = statistics::compare_runs(a.summary, b.summary, command.limits);
  const report::ComparedNames names{command.a, command.b};
  const auto text = command.output == "json" ? report::compare_json(comparison, names)
                                             : report::compare_text(comparison, names);
  std::fputs(text.c_str(), stdout);
  return comparison.passed() ? 0 : exit_regressed;
}

}  // namespace stampede::cmd
