// The open model's lines in the text report: the rate asked and kept, service time, lag, cap.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

/// With --rate: the rate asked for and achieved, what latency is counted from, the service time
/// beside it, the generator's lag, and the requests the cap (-c) held back or that were never
/// sent; "" for a closed-model run.
std::string rate_text(const statistics::Summary& summary);

}  // namespace stampede::report
