// The open connections of one thread, and the sweep that closes the idle ones.
#include <algorithm>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "target_server/connection.hpp"

namespace stampede::target_server {

namespace net = boost::asio;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

Clock::time_point ConnectionSet::idle_deadline(Clock::time_point from) const {
  if (idle_timeout_ == std::chrono::milliseconds::zero()) return Clock::time_point::max();
  return from + idle_timeout_;
}

std::chrono::milliseconds ConnectionSet::sweep_period() const {
  // Without an idle timeout the sweep still ends the closes that linger (connection_io.hpp's
  // linger_time, 2 s): once a second is often enough for them.
  if (idle_timeout_ == std::chrono::milliseconds::zero()) return std::chrono::seconds(1);
  return std::clamp(idle_timeout_ / 10, std::chrono::milliseconds(10),
                    std::chrono::milliseconds(1000));
}

void ConnectionSet::join(Entry& entry) {
  rejoin(entry);
  joined_.fetch_add(1, std::memory_order_relaxed);
}

void ConnectionSet::rejoin(Entry& entry) {
  entry.previous = nullptr;
  entry.next = first_;
  if (first_ != nullptr) first_->previous = &entry;
  first_ = &entry;
  ++size_;
}

void ConnectionSet::leave(Entry& entry) {
  if (entry.previous != nullptr) entry.previous->next = entry.next;
  if (entry.next != nullptr) entry.next->previous = entry.previous;
  if (first_ == &entry) first_ = entry.next;
  entry.previous = entry.next = nullptr;
  --size_;
}

std::size_t ConnectionSet::close_idle(Clock::time_point now) {
  std::size_t closed = 0;
  // Closing only queues the failure of the connection's pending operation; its coroutine leaves
  // the set later, so the list does not change under this loop.
  for (Entry* entry = first_; entry != nullptr; entry = entry->next) {
    if (entry->deadline >= now) continue;
    error_code ignored;
    entry->socket->close(ignored);
    entry->deadline = Clock::time_point::max();  // closed once
    ++closed;
  }
  return closed;
}

net::awaitable<void> sweep_idle(ConnectionSet* connections) {
  constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
  net::steady_timer timer(co_await net::this_coro::executor);
  for (;;) {
    timer.expires_after(connections->sweep_period());
    const auto [ec] = co_await timer.async_wait(use_tuple);
    if (ec) co_return;
    connections->close_idle(Clock::now());
  }
}

}  // namespace stampede::target_server
