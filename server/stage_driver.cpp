// StageDriver: a timer at each step of the level, and the users it starts and stops.
#include "server/stage_driver.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <utility>

namespace stampede::server {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

StageDriver::StageDriver(const net::any_io_executor& executor, pacing::Stages stages,
                         unsigned threads, unsigned index, ThreadTally& tally, SpawnUser spawn,
                         std::function<void()> on_finish)
    : stages_(std::move(stages)),
      threads_(threads),
      index_(index),
      tally_(tally),
      spawn_(std::move(spawn)),
      on_finish_(std::move(on_finish)),
      clock_(executor),
      running_(pacing::thread_share(stages_.peak(), threads, index), false) {}

net::awaitable<void> StageDriver::run() {
  follow(stages_.level_at(Clock::now() - tally_.run_start));
  for (auto at = stages_.next_change(Clock::now() - tally_.run_start); at && !tally_.stopping;
       at = stages_.next_change(*at)) {
    clock_.expires_at(std::min(tally_.run_start + *at, tally_.window_end));
    co_await clock_.async_wait(net::as_tuple(net::use_awaitable));
    if (tally_.stopping || Clock::now() >= tally_.window_end) break;
    follow(stages_.level_at(*at));
  }
  // The last target holds until -z's end (the stages' end without -z); then the users stop.
  if (!tally_.stopping && tally_.window_end != Clock::time_point::max()) {
    clock_.expires_at(tally_.window_end);
    co_await clock_.async_wait(net::as_tuple(net::use_awaitable));
  }
  over_ = true;
  tally_.user_limit = 0;
  on_finish_();
}

void StageDriver::follow(std::uint64_t level) {
  const auto share = pacing::thread_share(level, threads_, index_);
  tally_.user_limit = share;
  for (std::uint32_t local = 0; local < share; ++local) {
    if (!running_[local]) start(local);
  }
}

void StageDriver::start(std::uint32_t local) {
  running_[local] = true;
  spawn_(*this, local);
}

void StageDriver::ended(std::uint32_t local) {
  running_[local] = false;
  // Only a user that would send again: one started past the window's end would end at once,
  // and end here again (a user starts inline, on this stack).
  if (!over_ && !tally_.stopping && local < tally_.user_limit && Clock::now() < tally_.window_end) {
    start(local);
  }
}

}  // namespace stampede::server
