// Watchdog: a steady_timer loop over the thread's connections.
#include "server/client/watchdog.hpp"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <vector>

namespace stampede::client {

namespace net = boost::asio;

Watchdog::Watchdog(std::chrono::nanoseconds timeout)
    : period_(std::clamp<std::chrono::nanoseconds>(timeout / 20, std::chrono::milliseconds(5),
                                                   std::chrono::milliseconds(250))) {}

net::awaitable<void> Watchdog::run() {
  net::steady_timer timer(co_await net::this_coro::executor);
  std::vector<Guarded*> expired;
  for (;;) {
    timer.expires_after(period_);
    if (auto [error] = co_await timer.async_wait(net::as_tuple(net::use_awaitable)); error) {
      co_return;
    }
    const auto now = Clock::now();
    // expire() may complete operations inline; collect first so the set is not walked
    // while it could change.
    expired.clear();
    for (Guarded* guarded : guarded_) {
      if (guarded->deadline() <= now) expired.push_back(guarded);
    }
    for (Guarded* guarded : expired) guarded->expire();
  }
}

}  // namespace stampede::client
