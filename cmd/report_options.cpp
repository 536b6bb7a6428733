// `stampede report` and `stampede compare`: their tables of flags, parsed as the load run's are
// (Go's forms; --output, --threshold and -e as a run takes them).
#include "cmd/report_options.hpp"

#include <cmath>
#include <optional>
#include <tuple>

#include "cmd/options.hpp"
#include "cmd/threshold_flag.hpp"
#include "report/formats.hpp"

namespace stampede::cmd {
namespace {

constexpr std::string_view report_hint = " (see stampede report --help)";
constexpr std::string_view compare_hint = " (see stampede compare --help)";

const std::vector<Flag<ReportCommand>>& report_flags() {
  static const auto flags = [] {
    std::vector<Flag<ReportCommand>> rows{
        {{"--file", "FILE", "",
          "a saved run to read (repeatable; the files are usually given without the flag)",
          "Input"},
         &each_into<ReportCommand, &ReportCommand::files>}};
    for (auto& row : report_output_flags<ReportCommand>()) rows.push_back(row);
    rows.push_back({{"-h, --help", "", "", "this help", "Output"},
                    &into<ReportCommand, &ReportCommand::help>});
    return rows;
  }();
  return flags;
}

/// compare's words: the two files, then each bound as typed (a percentage, read below).
struct CompareWords {
  std::vector<std::string> files;
  std::string output = "text";
  std::string mean;
  std::string p50;
  std::string p90;
  std::string p99;
  std::string max;
  std::string rps;
  std::string errors;
  bool help = false;
};

template <auto Member>
constexpr auto compare_bound = &into<CompareWords, Member>;

constexpr std::string_view bounds = "Bounds";

const auto compare_flags = std::to_array<Flag<CompareWords>>({
    {{"--file", "FILE", "", "the baseline A, then the run B (usually given without the flag)",
      "Input"},
     &each_into<CompareWords, &CompareWords::files>},
    {{"--output", "FORMAT", "text", "text, or json: the same as one document", "Output"},
     compare_bound<&CompareWords::output>},
    {{"--max-p50-regress", "P%", "none", "how far B's p50 may rise, in percent of A's", bounds},
     compare_bound<&CompareWords::p50>},
    {{"--max-p90-regress", "P%", "none", "the same for p90", bounds},
     compare_bound<&CompareWords::p90>},
    {{"--max-p99-regress", "P%", "none", "the same for p99", bounds},
     compare_bound<&CompareWords::p99>},
    {{"--max-mean-regress", "P%", "none", "the same for the mean latency", bounds},
     compare_bound<&CompareWords::mean>},
    {{"--max-max-regress", "P%", "none", "the same for the longest latency", bounds},
     compare_bound<&CompareWords::max>},
    {{"--max-rps-drop", "P%", "none", "how far B's requests a second may fall, in percent of A's",
      bounds},
     compare_bound<&CompareWords::rps>},
    {{"--max-errors-rise", "POINTS", "none",
      "how far B's error share may rise, in percentage points", bounds},
     compare_bound<&CompareWords::errors>},
    {{"-h, --help", "", "", "this help", "Output"}, compare_bound<&CompareWords::help>},
});

/// "10%" or "10" as 10; a bound below 0 or not a number is a usage error.
double percent_of(const std::string& flag, std::string text) {
  if (!text.empty() && text.back() == '%') text.pop_back();
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::logic_error&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value) || value < 0) {
    throw UsageError(flag + " takes a percentage from 0, as 10%" + std::string(compare_hint));
  }
  return value;
}

std::string checked_output(const std::string& output, bool any_format) {
  if (any_format ? report::find_format(output) == nullptr : output != "text" && output != "json") {
    throw UsageError("--output " + output + ": choose " +
                     (any_format ? report::format_choices("--output")
                                 : std::string("--output text or --output json")));
  }
  return output;
}

}  // namespace

ReportCommand parse_report_options(std::span<const char* const> args) {
  ReportCommand command;
  (void)parse_flags(args, std::span(report_flags()), command, "file", report_hint, report_hint);
  if (command.help) return command;
  if (command.files.empty()) throw UsageError("no saved run given" + std::string(report_hint));
  (void)checked_output(command.output, true);
  for (const auto& text : command.thresholds) (void)parse_threshold(text);
  return command;
}

CommandDoc report_command_doc() {
  return {"report",
          "stampede report FILE... [flags]",
          "a saved run (--save) shown again, or several merged into one: counts and histograms "
          "add exactly",
          {{"Input"}, {"Output"}},
          docs_of(std::span(report_flags())),
          "Exit status: 0, 3 a --threshold failed, 5 some shard of a run is missing or was\n"
          "interrupted, 2 a file that is not a saved run (or runs that do not merge).\n"};
}

std::vector<NamedFile> outputs_of(const ReportCommand& command) {
  return given_files({{"--save", &command.save_file},
                      {"-e", &command.percentiles_file},
                      {"--html", &command.html_file}});
}

CompareCommand parse_compare_options(std::span<const char* const> args) {
  CompareWords words;
  const auto values =
      parse_flags(args, std::span(compare_flags), words, "file", compare_hint, compare_hint).values;
  CompareCommand command;
  command.help = words.help;
  if (command.help) return command;
  if (words.files.size() != 2) {
    throw UsageError("compare takes two saved runs, the baseline first" +
                     std::string(compare_hint));
  }
  command.a = words.files[0];
  command.b = words.files[1];
  command.output = checked_output(words.output, false);
  using Limits = statistics::CompareLimits;
  const std::tuple<const char*, std::string CompareWords::*, std::optional<double> Limits::*>
      given[]{{"max-mean-regress", &CompareWords::mean, &Limits::mean_regress},
              {"max-p50-regress", &CompareWords::p50, &Limits::p50_regress},
              {"max-p90-regress", &CompareWords::p90, &Limits::p90_regress},
              {"max-p99-regress", &CompareWords::p99, &Limits::p99_regress},
              {"max-max-regress", &CompareWords::max, &Limits::max_regress},
              {"max-rps-drop", &CompareWords::rps, &Limits::rps_drop},
              {"max-errors-rise", &CompareWords::errors, &Limits::errors_rise}};
  for (const auto& [name, text, limit] : given) {
    if (values.count(name) > 0) {
      command.limits.*limit = percent_of("--" + std::string(name), words.*text);
    }
  }
  return command;
}

CommandDoc compare_command_doc() {
  return {"compare",
          "stampede compare A B [flags]",
          "run B beside the baseline A (saved runs): requests a second, mean, p50, p90, p99, max "
          "and errors, with B's change",
          {{"Input"},
           {bounds, "B against A: a bound B broke marks its line REGRESSED (exit status 4)"},
           {"Output"}},
          docs_of(std::span(compare_flags)),
          "Exit status: 0, 4 B broke a bound, 2 a file that is not a saved run.\n"};
}

}  // namespace stampede::cmd
