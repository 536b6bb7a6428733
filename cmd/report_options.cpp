// `stampede report` and `stampede compare`: their flags read with Boost.Program_options, in the
// long forms the load run takes (--output, --threshold, -e).
#include "cmd/report_options.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <optional>

#include "cmd/options.hpp"
#include "cmd/threshold_flag.hpp"
#include "report/formats.hpp"

namespace stampede::cmd {
namespace {

namespace po = boost::program_options;

po::variables_map read_words(std::span<const char* const> args,
                             const po::options_description& description, const std::string& usage) {
  po::positional_options_description files;
  files.add("file", -1);
  const auto style =
      (po::command_line_style::default_style | po::command_line_style::allow_long_disguise) &
      ~po::command_line_style::allow_guessing;
  po::variables_map values;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(args.begin(), args.end()))
                  .options(description)
                  .positional(files)
                  .style(style)
                  .run(),
              values);
    po::notify(values);
  } catch (const po::error& error) {
    throw UsageError(std::string(error.what()) + " (usage: " + usage + ")");
  }
  return values;
}

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
    throw UsageError(flag + " takes a percentage from 0, as 10% (usage: " + compare_usage() + ")");
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

std::string report_usage() {
  return "stampede report FILE... [--output " + report::format_names("|") +
         "] [--threshold EXPR]... [--save FILE] [-e FILE] [--html FILE]";
}

std::string compare_usage() {
  return "stampede compare A B [--output text|json] [--max-p50-regress P%] [--max-p90-regress "
         "P%] [--max-p99-regress P%] [--max-mean-regress P%] [--max-max-regress P%] "
         "[--max-rps-drop P%] [--max-errors-rise POINTS]";
}

ReportCommand parse_report_options(std::span<const char* const> args) {
  ReportCommand command;
  po::options_description description;
  description.add_options()("file", po::value(&command.files))("output",
                                                               po::value(&command.output))(
      "threshold", po::value(&command.thresholds)->composing())("save",
                                                                po::value(&command.save_file))(
      "percentiles-csv,e", po::value(&command.percentiles_file))("html",
                                                                 po::value(&command.html_file));
  (void)read_words(args, description, report_usage());
  if (command.files.empty()) throw UsageError("no saved run given (usage: " + report_usage() + ")");
  (void)checked_output(command.output, true);
  for (const auto& text : command.thresholds) (void)parse_threshold(text);
  return command;
}

std::vector<NamedFile> outputs_of(const ReportCommand& command) {
  return given_files({{"--save", &command.save_file},
                      {"-e", &command.percentiles_file},
                      {"--html", &command.html_file}});
}

CompareCommand parse_compare_options(std::span<const char* const> args) {
  CompareCommand command;
  std::vector<std::string> files;
  po::options_description description;
  description.add_options()("file", po::value(&files))("output", po::value(&command.output));
  const std::pair<const char*, std::optional<double> statistics::CompareLimits::*> bounds[]{
      {"max-mean-regress", &statistics::CompareLimits::mean_regress},
      {"max-p50-regress", &statistics::CompareLimits::p50_regress},
      {"max-p90-regress", &statistics::CompareLimits::p90_regress},
      {"max-p99-regress", &statistics::CompareLimits::p99_regress},
      {"max-max-regress", &statistics::CompareLimits::max_regress},
      {"max-rps-drop", &statistics::CompareLimits::rps_drop},
      {"max-errors-rise", &statistics::CompareLimits::errors_rise}};
  for (const auto& [name, member] : bounds)
    description.add_options()(name, po::value<std::string>());
  const auto values = read_words(args, description, compare_usage());
  if (files.size() != 2) {
    throw UsageError("compare takes two saved runs, the baseline first (usage: " + compare_usage() +
                     ")");
  }
  command.a = files[0];
  command.b = files[1];
  (void)checked_output(command.output, false);
  for (const auto& [name, member] : bounds) {
    if (values.count(name) > 0) {
      command.limits.*member = percent_of(std::string("--") + name, values[name].as<std::string>());
    }
  }
  return command;
}

}  // namespace stampede::cmd
