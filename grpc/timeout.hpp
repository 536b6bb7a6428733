// The grpc-timeout header's value: a deadline as at most 8 digits and a unit.
#pragma once

#include <chrono>
#include <string>

namespace stampede::grpc {

/// grpc-timeout's value for `timeout` (PROTOCOL-HTTP2.md: TimeoutValue, at most 8 digits, then
/// H, M, S, m, u or n). The largest unit that states it exactly wins (250 ms is "250m", 30 s is
/// "30S", 1.5 s is "1500m"); a timeout no unit states exactly in 8 digits is rounded up in the
/// finest unit that fits, so the server never gives up before we do. A timeout of zero or less,
/// already over, is the shortest there is, "1n".
[[nodiscard]] std::string grpc_timeout(std::chrono::nanoseconds timeout);

}  // namespace stampede::grpc
