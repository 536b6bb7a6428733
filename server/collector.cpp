// Collector: the only code that merges metrics across threads; the hot path never locks.
#include "server/collector.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace stampede::server {

namespace net = boost::asio;

Collector::Collector(net::any_io_executor executor, std::size_t sources, RunInfo info,
                     TickHandler on_tick)
    : channel_(std::move(executor), 2 * sources), sources_(sources), on_tick_(std::move(on_tick)) {
  summary_.info = std::move(info);
}

net::awaitable<void> Collector::run() {
  for (;;) {
    auto [error, tick] = co_await channel_.async_receive(net::as_tuple(net::use_awaitable));
    if (error) co_return;  // closed
    const auto elapsed = tick.elapsed;
    absorb(std::move(tick));
    if (++received_ < sources_) continue;
    summary_.users_running = running_;
    close_second(elapsed);
    if (on_tick_) on_tick_(summary_);
  }
}

Summary Collector::finish(std::vector<Tick> remainders, std::chrono::nanoseconds elapsed,
                          StopReason reason) {
  summary_.users_running = 0;
  for (auto& tick : remainders) {
    summary_.abandoned += tick.in_flight;
    summary_.users_running += tick.users_running;
    absorb(std::move(tick));
  }
  summary_.stop_reason = reason;
  if (interval_.completed() > 0 || elapsed > second_start_) close_second(elapsed);
  return std::move(summary_);
}

void Collector::absorb(Tick tick) {
  interval_.merge(tick.delta);
  summary_.total.merge(tick.delta);
  if (summary_.steps.size() < tick.steps.size()) summary_.steps.resize(tick.steps.size());
  for (std::size_t i = 0; i < tick.steps.size(); ++i) summary_.steps[i].merge(tick.steps[i]);
  running_ += tick.users_running;
}

void Collector::close_second(std::chrono::nanoseconds elapsed) {
  summary_.elapsed = elapsed;
  summary_.add_second(interval_, elapsed - second_start_, summary_.users_running);
  second_start_ = elapsed;
  interval_.reset();
  running_ = 0;
  received_ = 0;
}

}  // namespace stampede::server
