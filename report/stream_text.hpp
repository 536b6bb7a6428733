// The event streams' lines in the text report (Server-Sent Events): streams, events, timing.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

/// A run of event streams: how many opened and how they ended, the events received and lost,
/// the time to each stream's first event and the gaps between events; "" for other runs.
std::string stream_text(const statistics::Summary& summary);

}  // namespace stampede::report
