// -p FILE[:WEIGHT]: a curl file (or HAR) and its weight in a mix of flows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stampede::cmd {

/// One -p: the file, and how often a user picks its flow against the others'.
struct CurlSource {
  std::string path;
  std::uint64_t weight = 1;
};

/// Reads `FILE:WEIGHT` (a whole weight from 1 to 1000000, after the last colon) or FILE alone
/// (weight 1). Throws UsageError for a weight out of range.
CurlSource curl_source(const std::string& text);

/// True when one of the -p files is a HAR.
bool any_har(const std::vector<std::string>& sources);

}  // namespace stampede::cmd
