// The ranges the command line accepts, shared by the parser and the checks before a run.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stampede::cmd::limits {

/// -c: each user holds its own connection, so its own socket, to each server. What bounds that
/// (open files, local ports times --source-ips addresses, memory) is checked per run
/// (capacity.cpp); this only refuses a typo: ten million at 4 KiB each is 40 GB.
constexpr std::int64_t max_users = 10'000'000;
/// --source-ips: each address adds a local port range (~28k-64k connections to one server), so
/// a few lift any real run; more than a /16's worth is a mistake.
constexpr std::size_t max_source_addresses = 65536;
/// -n: far more than a user sends in a year, and c x n still fits in 64 bits.
constexpr std::int64_t max_requests = 1'000'000'000'000;
/// -t: a thread's watchdog looks at its deadlines every 5 ms at best (server/client/watchdog.cpp).
constexpr double min_request_timeout_s = 0.01;
/// -timeout: the plan counts milliseconds; a smaller value would round to 0, "no limit".
constexpr double min_run_timeout_s = 0.001;
/// -t and -timeout: longer makes no sense for a load test, and the conversion of the seconds
/// to a duration must not overflow.
constexpr double max_seconds = 365.0 * 24 * 3600;
/// --max-message: a WebSocket reply is held whole in a user's buffer, so more than a GiB per
/// user is a mistake.
constexpr std::int64_t max_message_bytes = std::int64_t{1} << 30;
/// --rate: below one request in 1000 s is a typo; above ten million a second no machine sends.
constexpr double min_rate = 0.001;
constexpr double max_rate = 10'000'000;
/// -cpuNumber: threads, one io_context each.
constexpr std::int64_t max_threads = 1024;

}  // namespace stampede::cmd::limits
