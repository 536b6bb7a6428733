// run_report(), run_compare(): saved runs read back, merged or set side by side, and judged.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "cmd/commands.hpp"
#include "cmd/help.hpp"
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

/// True, with a word on stderr, for a file left empty: --save creates its file before the run,
/// so a shard killed before its end leaves one (the merge then names it missing).
bool left_empty(const std::string& path) {
  std::error_code error;
  if (std::filesystem::file_size(path, error) != 0 || error) return false;
  std::fprintf(stderr, "stampede: %s is empty: its run did not end (killed?); left out\n",
               path.c_str());
  return true;
}

/// Every file's run as one (the file's own when there is one). Empty files are left out when
/// the others are shards (which names the missing ones), else they are a usage error.
report::SavedRun merged_run(const std::vector<std::string>& files) {
  std::vector<statistics::Summary> runs;
  std::vector<std::string> empty;
  report::SavedRun merged;
  for (const auto& file : files) {
    if (left_empty(file)) {
      empty.push_back(file);
      continue;
    }
    auto run = load_saved_run(file);
    merged.sources.insert(merged.sources.end(), run.sources.begin(), run.sources.end());
    runs.push_back(std::move(run.summary));
  }
  try {
    if (!runs.empty()) merged.summary = statistics::merge_runs(runs);
  } catch (const statistics::MergeError& error) {
    throw UsageError(error.what());
  }
  if (!empty.empty() && (runs.empty() || !merged.summary.sharding)) {
    throw UsageError(empty.front() + ": empty, not a saved run (its run did not end)");
  }
  return merged;
}

/// True, with each reason on stderr, when some shard is missing or was stopped before its end.
bool incomplete(const statistics::Sharding& sharding) {
  const auto missing = sharding.missing();
  for (const auto index : missing) {
    std::fprintf(stderr,
                 "stampede: shard %u of %u (run %s) is missing: its saved run was not given\n",
                 index + 1, sharding.count, sharding.run.c_str());
  }
  for (const auto& shard : sharding.shards) {
    if (shard.stop_reason == statistics::StopReason::interrupted) {
      std::fprintf(stderr, "stampede: shard %u of %u (run %s) was interrupted before its end\n",
                   shard.index + 1, sharding.count, sharding.run.c_str());
    }
  }
  return !missing.empty() || sharding.any_interrupted();
}

/// A shard's clock a second or more off the teller's (--told-at) is named: the shards then
/// started --start-at apart by that much, though each reports a small skew by its own clock.
void warn_of_clocks(const statistics::Sharding& sharding) {
  for (const auto& shard : sharding.shards) {
    if (!shard.clock_offset || std::chrono::abs(*shard.clock_offset) < std::chrono::seconds(1)) {
      continue;
    }
    const std::chrono::duration<double> offset = *shard.clock_offset;
    std::fprintf(stderr,
                 "stampede: warning: shard %u of %u (run %s): its clock read %.3f s %s the one "
                 "that told it to start (%s): --start-at needs clocks in step (NTP)\n",
                 shard.index + 1, sharding.count, sharding.run.c_str(), std::abs(offset.count()),
                 offset.count() > 0 ? "ahead of" : "behind",
                 offset.count() > 0 ? "or the telling took that long" : "the telling included");
  }
}

}  // namespace

int run_report(std::span<const char* const> args) {
  const auto command = parse_report_options(args);
  if (command.help) {
    std::fputs(command_help(report_command_doc()).c_str(), stdout);
    return 0;
  }
  std::vector<NamedFile> inputs;
  for (const auto& file : command.files) inputs.push_back({"a saved run it reads", file});
  refuse_clashes(outputs_of(command), inputs);
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
  if (summary.sharding) warn_of_clocks(*summary.sharding);
  if (summary.sharding && incomplete(*summary.sharding)) return exit_incomplete;
  const bool failed = std::any_of(summary.thresholds.begin(), summary.thresholds.end(),
                                  [](const auto& verdict) { return !verdict.passed; });
  return failed ? exit_threshold_failed : 0;
}

int run_compare(std::span<const char* const> args) {
  const auto command = parse_compare_options(args);
  if (command.help) {
    std::fputs(command_help(compare_command_doc()).c_str(), stdout);
    return 0;
  }
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
