// The saved-run format's Metrics and Histogram objects (saved_run.hpp), both ways.
#pragma once

#include "report/saved_fields.hpp"
#include "server/statistics/metrics.hpp"

namespace stampede::report {

/// null when empty, else its exact figures and its counts in HdrHistogram's encoding.
SavedJson histogram_to_json(const statistics::Histogram& histogram);
/// Throws std::invalid_argument or nlohmann::json::exception when `json` is not one.
statistics::Histogram histogram_from_json(const SavedJson& json);

/// Every field of `metrics`, so that metrics_from_json(metrics_to_json(m)) == m.
SavedJson metrics_to_json(const statistics::Metrics& metrics);
/// Every number read strictly (saved_fields.hpp), and the counts checked against one another.
/// Throws std::invalid_argument or nlohmann::json::exception when `json` is not one, or when its
/// counts disagree (its totals with its histograms or its breakdowns: an edited or damaged file).
statistics::Metrics metrics_from_json(const SavedJson& json);

/// {"200": 1000}: counts by a number (a status code, a check's).
SavedJson counts_to_json(const std::map<int, std::uint64_t>& counts);
/// The counts of counts_to_json's object; throws std::invalid_argument on a key not a number.
std::map<int, std::uint64_t> counts_from_json(const SavedJson& json);

/// "123...": a 128-bit sum in decimal (JSON numbers stop at 64 bits).
std::string u128_text(unsigned __int128 value);
/// The value of u128_text's text; throws std::invalid_argument on anything else.
unsigned __int128 u128_from_text(const std::string& text);

}  // namespace stampede::report
