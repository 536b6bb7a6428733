// thresholds_text(), thresholds_json(): each bound beside what the run measured, so a failed CI
// job says which and by how much.
#include "report/threshold_report.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/report_format.hpp"

namespace stampede::report {

namespace {

std::string measured_text(const statistics::ThresholdVerdict& verdict) {
  if (verdict.unit == "share") return format_fixed(verdict.measured * 100, 2) + "% errors";
  if (verdict.unit == "requests") return format_fixed(verdict.measured, 0) + " failed requests";
  return format_fixed(verdict.measured, verdict.unit == "ms" ? 3 : 2) + " " + verdict.unit;
}

}  // namespace

std::string thresholds_text(const std::vector<statistics::ThresholdVerdict>& verdicts) {
  if (verdicts.empty()) return "";
  std::string text = "\nThresholds:\n";
  for (const auto& verdict : verdicts) {
    text += "  " + pad_right(printable(verdict.text), 22) + (verdict.passed ? "pass  " : "FAIL  ") +
            measured_text(verdict) + '\n';
  }
  return text;
}

nlohmann::json thresholds_json(const std::vector<statistics::ThresholdVerdict>& verdicts) {
  nlohmann::json json = nlohmann::json::array();
  for (const auto& verdict : verdicts) {
    json.push_back({{"threshold", verdict.text},
                    {"passed", verdict.passed},
                    {"measured", round_to(verdict.measured, verdict.unit == "share" ? 6 : 3)},
                    {"unit", verdict.unit}});
  }
  return json;
}

}  // namespace stampede::report
