// The output formats --output accepts, in one table that the flag check, --help and the run read.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "server/statistics/summary.hpp"
#include "server/sweep/sweep_result.hpp"

namespace stampede::report {

/// One way to print the final report. A new format is one more entry in formats().
struct Format {
  std::string_view name;                                           ///< as given to --output
  std::string_view description;                                    ///< one line for --help
  std::string (*render)(const statistics::Summary&);               ///< the whole report, for stdout
  std::string (*render_sweep)(const server::sweep::SweepResult&);  ///< a sweep's, instead
  /// The live rows go to stdout before the report; false sends them to stderr, so that stdout
  /// holds nothing but the document (for formats a program reads).
  bool rows_on_stdout;
};

/// Every format, the default (text) first.
std::span<const Format> formats();

/// The format called `name`, or nullptr when there is none.
const Format* find_format(std::string_view name);

/// The names joined by `separator`: "text|json" for separator "|".
std::string format_names(std::string_view separator);

/// Each name after `prefix`, as a sentence lists them: "--output text or --output json".
std::string format_choices(std::string_view prefix);

}  // namespace stampede::report
