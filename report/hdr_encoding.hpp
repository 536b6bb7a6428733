// HdrHistogram's V2 compressed encoding of a latency histogram, so HdrHistogram's own tools
// (Java, C, Go, hdr-histogram-js) read the histograms of a saved run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "server/statistics/histogram.hpp"

namespace stampede::report {

/// `histogram`'s counts in HdrHistogram's V2 compressed form (cookie 0x1c849314, a zlib stream
/// of the V2 header and the ZigZag LEB128 counts), base64 as HdrHistogram's logs carry it.
/// Values are nanoseconds: lowest discernible 1, highest Histogram::max_value, 2 digits.
std::string hdr_base64(const statistics::Histogram& histogram);

/// The counts by index that hdr_base64() encoded; throws std::invalid_argument when `text` is
/// not such an encoding or describes another layout.
std::vector<std::uint64_t> hdr_counts(std::string_view text);

}  // namespace stampede::report
