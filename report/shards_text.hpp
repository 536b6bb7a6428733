// shards_text(): one line on the shards a merged run holds, for the text and HTML reports.
#pragma once

#include <string>

#include "server/statistics/summary.hpp"

namespace stampede::report {

/// "8 of 8 (run 3fa1c2d9e0b4); starts 1.8 ms apart; the latest 2.3 ms after --start-at", with the
/// missing shards and those stopped before their end named first; "shard 3 of 8 (run ...)" for
/// one shard's own run.
std::string shards_text(const statistics::Sharding& sharding);

}  // namespace stampede::report
