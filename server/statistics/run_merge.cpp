// merge_runs(): totals by Metrics::merge, seconds bucketed by the wall-clock second they end in.
#include "server/statistics/run_merge.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace stampede::statistics {
namespace {

using std::chrono::duration;
using std::chrono::nanoseconds;

void check_same_flow(const Summary& first, const Summary& other) {
  if (other.info.steps != first.info.steps) {
    throw MergeError(
        "runs of different requests cannot merge (" +
        (first.info.steps.empty() ? std::string("none") : first.info.steps.front()) + " and " +
        (other.info.steps.empty() ? std::string("none") : other.info.steps.front()) + ")");
  }
  if (other.info.flows != first.info.flows) {
    throw MergeError("runs of different flow mixes (-p FILE:WEIGHT) cannot merge");
  }
  if (other.info.checks != first.info.checks) {
    throw MergeError("runs with different --expect checks cannot merge");
  }
}

void add_info(RunInfo& into, const RunInfo& from) {
  into.users += from.users;
  into.threads += from.threads;
  into.rate += from.rate;
  into.rate_moves = into.rate_moves || from.rate_moves;
  into.window = std::max(into.window, from.window);
  into.keep_alive = into.keep_alive && from.keep_alive;
  into.latency_per_second = into.latency_per_second && from.latency_per_second;
  into.held = into.held || from.held;
  if (into.stream_unit.empty()) into.stream_unit = from.stream_unit;
  if (into.requests_per_user != from.requests_per_user) into.requests_per_user = 0;
}

void add_second(Second& into, const Second& from) {
  into.users_running += from.users_running;
  into.succeeded += from.succeeded;
  into.failed += from.failed;
  into.rps += from.rps;
  into.due_per_s += from.due_per_s;
  for (const auto& [code, count] : from.status_codes) into.status_codes[code] += count;
  into.connections_open += from.connections_open;
  into.connections_opened += from.connections_opened;
  into.connections_failed += from.connections_failed;
  into.connections_closed_by_server += from.connections_closed_by_server;
  into.received_bytes_per_s += from.received_bytes_per_s;
  into.resident_bytes += from.resident_bytes;
  into.latency.merge(from.latency);
}

/// Every run's seconds keyed by the wall-clock second (since `start`) they end in.
std::vector<Second> aligned_seconds(std::span<const Summary> runs,
                                    std::chrono::system_clock::time_point start) {
  std::map<long long, Second> by_second;
  for (const auto& run : runs) {
    const double offset_s = duration<double>(run.info.started_at - start).count();
    for (const auto& second : run.per_second) {
      const auto key = std::llround(offset_s + second.elapsed_s);
      auto [at, fresh] = by_second.try_emplace(key);
      if (fresh) at->second.elapsed_s = static_cast<double>(key);
      add_second(at->second, second);
    }
  }
  std::vector<Second> seconds;
  for (auto& [key, second] : by_second) {
    second.describe_latency(second.latency);
    seconds.push_back(std::move(second));
  }
  return seconds;
}

std::string shard_name(const Sharding& sharding, unsigned index) {
  return "shard " + std::to_string(index + 1) + "/" + std::to_string(sharding.count) + " of run " +
         sharding.run;
}

/// The shards of `into` and `from` as one: both shards of one run, each shard once.
void add_shards(std::optional<Sharding>& into, const std::optional<Sharding>& from) {
  if (!into || !from) {
    if (into || from) {
      const auto& shard = into ? *into : *from;
      throw MergeError(shard_name(shard, shard.shards.front().index) +
                       " cannot merge with a run that is not a shard (--shard)");
    }
    return;
  }
  if (from->run != into->run || from->count != into->count) {
    throw MergeError("shards of different runs cannot merge (" +
                     shard_name(*into, into->shards.front().index) + ", " +
                     shard_name(*from, from->shards.front().index) + ")");
  }
  if (!from->plan.empty() && !into->plan.empty() && from->plan != into->plan) {
    throw MergeError(shard_name(*from, from->shards.front().index) +
                     " was run with other flags than " +
                     shard_name(*into, into->shards.front().index) +
                     " (-c, -n, -z, --rate or the URL: the shards of one run share every flag but "
                     "--shard and the outputs)");
  }
  if (into->plan.empty()) into->plan = from->plan;
  for (const auto& shard : from->shards) {
    const auto at = std::lower_bound(
        into->shards.begin(), into->shards.end(), shard.index,
        [](const ShardRecord& held, unsigned index) { return held.index < index; });
    if (at != into->shards.end() && at->index == shard.index) {
      throw MergeError(shard_name(*into, shard.index) + " is given twice");
    }
    into->shards.insert(at, shard);
  }
}

}  // namespace

Summary merge_runs(std::span<const Summary> runs) {
  if (runs.empty()) throw MergeError("no run to merge");
  Summary merged = runs.front();
  merged.capacity.reset();
  merged.thresholds.clear();
  auto end = merged.info.started_at + merged.elapsed;
  bool all_completed = merged.stop_reason == StopReason::completed;
  for (const auto& run : runs.subspan(1)) {
    add_shards(merged.sharding, run.sharding);  // first: shards of two runs differ in more
    check_same_flow(merged, run);
    add_info(merged.info, run.info);
    merged.info.started_at = std::min(merged.info.started_at, run.info.started_at);
    end = std::max(end, run.info.started_at + run.elapsed);
    merged.total.merge(run.total);
    for (std::size_t i = 0; i < run.steps.size() && i < merged.steps.size(); ++i) {
      merged.steps[i].merge(run.steps[i]);
    }
    merged.users_running += run.users_running;
    merged.abandoned += run.abandoned;
    merged.users_started += run.users_started;
    merged.resident_at_start += run.resident_at_start;
    // The run as a whole ended the way its first stopped run did.
    if (all_completed && run.stop_reason != StopReason::completed) {
      merged.stop_reason = run.stop_reason;
      all_completed = false;
    }
  }
  merged.elapsed = std::chrono::duration_cast<nanoseconds>(end - merged.info.started_at);
  if (runs.size() > 1) merged.per_second = aligned_seconds(runs, merged.info.started_at);
  return merged;
}

}  // namespace stampede::statistics
