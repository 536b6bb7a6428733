// The closing text report: go-stress-testing's result block, then everything ApacheBench prints.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

using statistics::Summary;

/// The whole end-of-run report, lines ending in '\n'. Never prints nan or inf: an empty run
/// reports zeros and says that no response arrived instead of printing timing tables.
std::string text_report(const Summary& summary);

}  // namespace stampede::report
