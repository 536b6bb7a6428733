// compare_text(), compare_json(): figures to the microsecond, changes to a tenth of a percent.
#include "report/compare_report.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/report_format.hpp"

namespace stampede::report {
namespace {

using statistics::CompareRow;

std::string label(const CompareRow& row) {
  if (row.figure == "rps") return "Requests/s";
  if (row.figure == "errors") return "Errors (%)";
  if (row.figure == "mean") return "Mean (ms)";
  if (row.figure == "max") return "Max (ms)";
  return row.figure + " (ms)";
}

std::string signed_fixed(double value, int decimals) {
  return (value >= 0 ? "+" : "") + format_fixed(value, decimals);
}

std::string change_text(const CompareRow& row) {
  if (!row.change) return "-";
  return row.figure == "errors" ? signed_fixed(*row.change, 2) + " pt"
                                : signed_fixed(*row.change, 1) + "%";
}

std::string limit_text(const CompareRow& row) {
  if (!row.limit) return "";
  if (row.figure == "rps") return "drop <= " + format_fixed(*row.limit, 1) + "%";
  if (row.figure == "errors") return "rise <= " + format_fixed(*row.limit, 2) + " pt";
  return "rise <= " + format_fixed(*row.limit, 1) + "%";
}

}  // namespace

std::string compare_text(const statistics::RunComparison& comparison, const ComparedNames& names) {
  std::string text = "A: " + printable(names.a) + "\nB: " + printable(names.b) + "\n\n";
  text += pad_right("", 14) + pad_left("A", 12) + pad_left("B", 12) + pad_left("change", 11) +
          "   bound\n";
  std::size_t broken = 0;
  std::size_t judged = 0;
  for (const auto& row : comparison.rows) {
    const int decimals = row.unit == "ms" ? 3 : 2;
    text += pad_right(label(row), 14) + pad_left(format_fixed(row.a, decimals), 12) +
            pad_left(format_fixed(row.b, decimals), 12) + pad_left(change_text(row), 11);
    if (row.limit) {
      ++judged;
      if (!row.passed) ++broken;
      text += "   " + pad_right(limit_text(row), 17) + (row.passed ? "ok" : "REGRESSED");
    }
    text += '\n';
  }
  if (judged == 0) return text + "\nNo bound given (--max-p99-regress 10%, --max-rps-drop 5%...)\n";
  return text + (broken == 0 ? "\nB kept every bound\n"
                             : "\nB regressed: " + std::to_string(broken) + " of " +
                                   std::to_string(judged) + " bounds broken\n");
}

std::string compare_json(const statistics::RunComparison& comparison, const ComparedNames& names) {
  nlohmann::ordered_json figures = nlohmann::ordered_json::array();
  for (const auto& row : comparison.rows) {
    const int decimals = row.unit == "ms" ? 3 : 2;
    figures.push_back(
        {{"figure", row.figure},
         {"unit", row.unit},
         {"a", round_to(row.a, decimals)},
         {"b", round_to(row.b, decimals)},
         {"change",
          row.change ? nlohmann::ordered_json(round_to(*row.change, 2)) : nlohmann::ordered_json()},
         {"limit", row.limit ? nlohmann::ordered_json(*row.limit) : nlohmann::ordered_json()},
         {"passed", row.passed}});
  }
  const nlohmann::ordered_json json{
      {"a", names.a}, {"b", names.b}, {"passed", comparison.passed()}, {"figures", figures}};
  return json.dump(2) + "\n";
}

}  // namespace stampede::report
