// UserPace: one wait before each request, for whichever model paces the run.
#include "server/user_pace.hpp"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <utility>

namespace stampede::server {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

UserPace::UserPace(const PaceSetup& setup, ThreadTally& tally, const net::any_io_executor& executor)
    : setup_(setup),
      tally_(tally),
      think_(setup.think_min, setup.think_max, setup.seed),
      next_send_(Clock::now()) {
  if (setup.interval.count() > 0 || !think_.none() || setup.step_pauses || setup.rate != nullptr) {
    timer_ = std::make_unique<boost::asio::steady_timer>(executor);
  }
}

bool UserPace::going() const {
  return !tally_.stopping && setup_.local < tally_.user_limit &&
         (tally_.window_end == Clock::time_point::max() || setup_.now() < tally_.window_end);
}

net::awaitable<bool> UserPace::wait(bool round_start, std::chrono::milliseconds pause) {
  if (!going()) co_return false;
  if (setup_.rate != nullptr) {
    scheduled_.reset();
    if (!round_start) co_return true;  // a flow's later steps follow at once
    if (std::exchange(first_, false)) {
      scheduled_ = setup_.first;
    } else {
      scheduled_ = co_await setup_.rate->next(setup_.local, *timer_);
    }
    if (scheduled_) {
      lag_ = setup_.now() - scheduled_->ready;
      setup_.rate->note_started();
    }
    co_return scheduled_.has_value();
  }
  if (!timer_) co_return true;  // back to back
  const auto now = Clock::now();
  // --interval's ticker (at once if late), --think's pause after the previous request, or the
  // pause a HAR recorded before this step.
  auto at = next_send_;
  if (!think_.none()) at = std::exchange(first_, false) ? now : now + think_.next();
  if (pause.count() > 0 && !round_start) at = now + pause;
  const bool go = at <= now || co_await wait_until(at);
  next_send_ = std::max(next_send_ + setup_.interval, Clock::now());
  co_return go;
}

void UserPace::end() {
  if (setup_.rate != nullptr && std::exchange(first_, false)) setup_.rate->note_missed_first();
}

net::awaitable<bool> UserPace::wait_until(Clock::time_point at) {
  timer_->expires_at(std::min(at, tally_.window_end));  // -z's end comes first
  co_await timer_->async_wait(net::as_tuple(net::use_awaitable));
  co_return going();
}

}  // namespace stampede::server
