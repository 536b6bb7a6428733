// Collector: the only code that merges metrics across threads; the hot path never locks.
#include "server/collector.hpp"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fstream>
#include <numeric>

#include <unistd.h>

namespace stampede::server {

namespace net = boost::asio;

namespace {

/// This process's resident memory (the second field of /proc/self/statm, in pages), for the
/// memory each open connection costs; 0 where it cannot be read.
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0;
  std::uint64_t resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

Collector::Collector(net::any_io_executor executor, std::size_t sources, RunInfo info,
                     TickHandler on_tick, RequestSink on_requests)
    : channel_(std::move(executor), 2 * sources),
      on_tick_(std::move(on_tick)),
      on_requests_(std::move(on_requests)),
      reported_(sources, 0),
      running_(sources, 0),
      in_flight_(sources, 0) {
  summary_.info = std::move(info);
  summary_.info.started_at = std::chrono::system_clock::now();
  summary_.resident_at_start = resident_bytes();
}

net::awaitable<void> Collector::run() {
  for (;;) {
    auto [error, tick] = co_await channel_.async_receive(net::as_tuple(net::use_awaitable));
    if (error) co_return;  // closed
    auto& source = reported_.at(tick.source);
    source = std::max(source, tick.second);
    running_[tick.source] = tick.users_running;
    in_flight_[tick.source] = tick.in_flight;
    // A thread's ticks arrive in order, so its second is still open; one without a number
    // (or from before the last row) joins the oldest open second rather than a closed row.
    const auto second = std::max(tick.second, closed_ + 1);
    absorb(std::move(tick), pending_[second]);
    close_reported_seconds();
  }
}

void Collector::close_reported_seconds() {
  const auto reported_by_all = *std::min_element(reported_.begin(), reported_.end());
  while (closed_ < reported_by_all) {
    const auto second = closed_ + 1;
    const auto found = pending_.find(second);
    // A second whose every tick was refused (the channel was full) has no data of its own: its
    // requests come with the next ticks. Its row ends at its nominal time.
    const Pending pending = found == pending_.end() ? Pending{{}, {}, std::chrono::seconds(second)}
                                                    : std::move(found->second);
    if (found != pending_.end()) pending_.erase(found);
    summary_.users_running = std::accumulate(running_.begin(), running_.end(), std::uint64_t{0});
    summary_.in_flight = std::accumulate(in_flight_.begin(), in_flight_.end(), std::uint64_t{0});
    close_second(pending, std::max(pending.elapsed, second_start_));
    closed_ = second;
    if (on_tick_) on_tick_(summary_);
  }
}

Summary Collector::finish(std::vector<Tick> remainders, std::chrono::nanoseconds elapsed,
                          StopReason reason) {
  Pending last;
  for (auto& [second, pending] : pending_) {
    last.interval.merge(pending.interval);
    if (last.steps.size() < pending.steps.size()) last.steps.resize(pending.steps.size());
    for (std::size_t i = 0; i < pending.steps.size(); ++i) last.steps[i].merge(pending.steps[i]);
  }
  pending_.clear();
  summary_.users_running = 0;
  summary_.in_flight = 0;
  for (auto& tick : remainders) {
    summary_.abandoned += tick.in_flight;
    summary_.users_running += tick.users_running;
    absorb(std::move(tick), last);
  }
  summary_.stop_reason = reason;
  if (last.interval.completed() > 0 || elapsed > second_start_) close_second(last, elapsed);
  return std::move(summary_);
}

void Collector::absorb(Tick tick, Pending& into) {
  if (on_requests_ && !tick.requests.empty()) on_requests_(tick.requests, summary_.info.started_at);
  into.interval.merge(tick.delta);
  if (into.steps.size() < tick.steps.size()) into.steps.resize(tick.steps.size());
  for (std::size_t i = 0; i < tick.steps.size(); ++i) into.steps[i].merge(tick.steps[i]);
  into.elapsed = std::max(into.elapsed, tick.elapsed);
}

void Collector::close_second(const Pending& pending, std::chrono::nanoseconds elapsed) {
  summary_.total.merge(pending.interval);
  if (summary_.steps.size() < pending.steps.size()) summary_.steps.resize(pending.steps.size());
  for (std::size_t i = 0; i < pending.steps.size(); ++i) summary_.steps[i].merge(pending.steps[i]);
  summary_.elapsed = elapsed;
  summary_.add_second(pending.interval, elapsed - second_start_, summary_.users_running,
                      resident_bytes());
  second_start_ = elapsed;
}

}  // namespace stampede::server
