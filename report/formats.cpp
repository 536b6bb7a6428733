// The output formats --output accepts, in one table that the flag check, --help and the run read.
#include "report/formats.hpp"

#include <algorithm>
#include <array>

#include "report/csv_report.hpp"
#include "report/json_report.hpp"
#include "report/sweep_report.hpp"
#include "report/text_report.hpp"

namespace stampede::report {
namespace {

constexpr std::array<Format, 3> table{{
    {"text", "go-stress-testing's result block, then ab's report", text_report, sweep_text, true},
    {"json", "one JSON document on stdout; the live rows go to stderr", json_report, sweep_json,
     false},
    {"csv", "a row a second, or a sweep step; the live rows go to stderr", csv_report, csv_sweep,
     false},
}};

}  // namespace

std::span<const Format> formats() { return table; }

const Format* find_format(std::string_view name) {
  const auto found =
      std::find_if(table.begin(), table.end(), [name](const Format& f) { return f.name == name; });
  return found == table.end() ? nullptr : &*found;
}

std::string format_names(std::string_view separator) {
  std::string text;
  for (const Format& format : table) {
    if (!text.empty()) text += separator;
    text += format.name;
  }
  return text;
}

std::string format_choices(std::string_view prefix) {
  std::string text;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (i > 0) text += i + 1 == table.size() ? " or " : ", ";
    text += std::string(prefix) + std::string(table[i].name);
  }
  return text;
}

}  // namespace stampede::report
