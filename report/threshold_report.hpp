// The --threshold verdicts as the text and JSON reports print them.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "server/statistics/threshold.hpp"

namespace stampede::report {

/// "Thresholds:" and a line each: the threshold as typed, pass or FAIL, what was measured;
/// "" without thresholds.
std::string thresholds_text(const std::vector<statistics::ThresholdVerdict>& verdicts);

/// One object a threshold: `threshold`, `passed`, `measured`, `unit` (docs/json-report.md).
nlohmann::json thresholds_json(const std::vector<statistics::ThresholdVerdict>& verdicts);

}  // namespace stampede::report
