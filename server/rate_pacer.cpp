// RatePacer: the schedule's clock on a thread, and its users' waits for their next request.
#include "server/rate_pacer.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <utility>

namespace stampede::server {

namespace net = boost::asio;

RatePacer::RatePacer(const net::any_io_executor& executor, pacing::RateSchedule schedule,
                     std::uint32_t cap, ThreadTally& tally, SpawnUser spawn,
                     std::function<void()> on_finish)
    : schedule_(schedule),
      dispatch_(cap),
      tally_(tally),
      spawn_(std::move(spawn)),
      on_finish_(std::move(on_finish)),
      clock_(executor),
      slots_(cap) {}

bool RatePacer::over() const {
  return tally_.stopping ||
         (tally_.window_end != Clock::time_point::max() && Clock::now() >= tally_.window_end);
}

net::awaitable<void> RatePacer::run() {
  for (std::uint64_t k = 0;; ++k) {
    const auto offset = schedule_.due(k);
    if (!offset) break;
    const auto due = tally_.run_start + *offset;
    if (due > Clock::now()) {  // late (a busy thread): at once, its lag will say by how much
      clock_.expires_at(due);
      co_await clock_.async_wait(net::as_tuple(net::use_awaitable));
    }
    if (tally_.stopping) break;
    hand_out(k, due);
  }
  // -z: the run lasts the window, and requests still waiting for a user may start until then.
  if (!tally_.stopping && tally_.window_end != Clock::time_point::max()) {
    clock_.expires_at(tally_.window_end);
    co_await clock_.async_wait(net::as_tuple(net::use_awaitable));
  }
  finish();
}

void RatePacer::hand_out(std::uint64_t k, Clock::time_point due) {
  ++tally_.metrics.rate.due;
  ++due_;
  const auto handout = dispatch_.due(k);
  using To = pacing::Dispatch::Handout::To;
  if (handout.to == To::queue) {
    ++tally_.metrics.rate.capped;
    if (starting_ > 0) ++tally_.metrics.rate.capped_starting;
    return;
  }
  const RateStart start{due, due};
  if (handout.to == To::new_user) {
    ++starting_;
    spawn_(*this, handout.user, start);
    return;
  }
  auto& slot = slots_[handout.user];
  slot.start = start;
  slot.wake->cancel();
}

void RatePacer::finish() {
  finished_ = true;
  // Past -z's end or at a stop, what still waits for a user is missed; with -n's total, the
  // users go on through it (next() takes the waiting first).
  if (over()) {
    count_missed(dispatch_.waiting());
    dispatch_.drop_waiting();
  }
  for (const auto user : dispatch_.take_idle()) slots_[user].wake->cancel();  // start: nullopt
  for (auto user = dispatch_.started(); user < dispatch_.cap(); ++user) on_finish_();
  on_finish_();  // the pacer's own end
}

net::awaitable<std::optional<RateStart>> RatePacer::next(std::uint32_t local,
                                                         net::steady_timer& wake) {
  if (!std::exchange(slots_[local].first_done, true)) --starting_;
  if (over()) co_return std::nullopt;
  if (const auto k = dispatch_.release(local)) {  // a request waited for a free user
    co_return RateStart{tally_.run_start + *schedule_.due(*k), Clock::now()};
  }
  if (finished_) co_return std::nullopt;
  auto& slot = slots_[local];
  slot.wake = &wake;
  wake.expires_at(Clock::time_point::max());
  co_await wake.async_wait(net::as_tuple(net::use_awaitable));
  co_return std::exchange(slot.start, std::nullopt);
}

}  // namespace stampede::server
