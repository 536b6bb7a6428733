// Summary: run-wide rates and the per-second history the live rows and reports print.
#include "server/statistics/summary.hpp"

#include <algorithm>

#include <chrono>
#include <utility>

namespace stampede::statistics {
namespace {

double seconds(std::chrono::nanoseconds duration) {
  return std::chrono::duration<double>(duration).count();
}

}  // namespace

double Summary::rps() const {
  const double s = seconds(elapsed);
  return s > 0 ? static_cast<double>(total.completed()) / s : 0.0;
}

double Summary::successes_per_second() const {
  const double s = seconds(elapsed);
  return s > 0 ? static_cast<double>(total.succeeded) / s : 0.0;
}

double Summary::achieved_rate() const {
  const double s = seconds(info.window.count() > 0 ? std::min(info.window, elapsed) : elapsed);
  return s > 0 ? static_cast<double>(total.rate.scheduled + abandoned) / s : 0.0;
}

void Summary::add_second(const Metrics& interval, std::chrono::nanoseconds interval_length,
                         std::uint64_t running, std::uint64_t resident) {
  const double length_s = seconds(interval_length);
  Second second;
  // Elapsed is the sum of the interval lengths, not this->elapsed: rows stay consistent with
  // their own lengths whether the caller updates `elapsed` before or after this call.
  second.elapsed_s = (per_second.empty() ? 0.0 : per_second.back().elapsed_s) + length_s;
  second.users_running = running;
  second.succeeded = interval.succeeded;
  second.failed = interval.failed;
  second.rps = length_s > 0 ? static_cast<double>(interval.completed()) / length_s : 0.0;
  second.due_per_s = length_s > 0 ? static_cast<double>(interval.rate.due) / length_s : 0.0;
  second.describe_latency(interval.latency);
  if (info.latency_per_second) second.latency = interval.latency;
  second.status_codes = interval.status_codes;
  const auto& connections = interval.long_lived;
  // A connection ends on the thread that opened it, never in an earlier tick: opened >= ended.
  second.connections_open =
      total.long_lived.opened - std::min(total.long_lived.ended, total.long_lived.opened);
  second.connections_opened = connections.opened;
  second.connections_failed = connections.failures();
  second.connections_closed_by_server = connections.closed_by_server;
  second.received_bytes_per_s =
      length_s > 0 ? static_cast<double>(interval.bytes_received) / length_s : 0.0;
  second.resident_bytes = resident;
  per_second.push_back(std::move(second));
}

void Second::describe_latency(const Histogram& of) {
  min_ms = to_ms(static_cast<double>(of.min()));
  mean_ms = to_ms(of.mean());
  max_ms = to_ms(static_cast<double>(of.max()));
  p50_ms = to_ms(static_cast<double>(of.percentile(50)));
  p90_ms = to_ms(static_cast<double>(of.percentile(90)));
  p99_ms = to_ms(static_cast<double>(of.percentile(99)));
}

std::vector<unsigned> Sharding::missing() const {
  std::vector<unsigned> missing;
  auto held = shards.begin();
  for (unsigned index = 0; index < count; ++index) {
    if (held != shards.end() && held->index == index) {
      ++held;
    } else {
      missing.push_back(index);
    }
  }
  return missing;
}

bool Sharding::any_interrupted() const {
  return std::any_of(shards.begin(), shards.end(), [](const ShardRecord& shard) {
    return shard.stop_reason == StopReason::interrupted;
  });
}

std::chrono::nanoseconds Sharding::worst_skew() const {
  std::chrono::nanoseconds worst{0};
  for (const auto& shard : shards) {
    if (shard.start_at) worst = std::max(worst, shard.started_at - *shard.start_at);
  }
  return worst;
}

std::chrono::nanoseconds Sharding::start_spread() const {
  if (shards.empty()) return {};
  const auto [first, last] =
      std::minmax_element(shards.begin(), shards.end(),
                          [](const auto& a, const auto& b) { return a.started_at < b.started_at; });
  return last->started_at - first->started_at;
}

std::optional<std::pair<std::chrono::nanoseconds, std::chrono::nanoseconds>>
Sharding::clock_offsets() const {
  std::optional<std::pair<std::chrono::nanoseconds, std::chrono::nanoseconds>> range;
  for (const auto& shard : shards) {
    if (!shard.clock_offset) continue;
    const auto offset = *shard.clock_offset;
    range = range ? std::pair(std::min(range->first, offset), std::max(range->second, offset))
                  : std::pair(offset, offset);
  }
  return range;
}

const char* to_string(StopReason reason) {
  switch (reason) {
    case StopReason::completed:
      return "completed";
    case StopReason::interrupted:
      return "interrupted";
    case StopReason::time_limit:
      return "time_limit";
    case StopReason::duration:
      return "duration";
    case StopReason::aborted:
      return "aborted";
  }
  return "unknown";  // only for a value outside the enum
}

}  // namespace stampede::statistics
