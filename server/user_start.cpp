// start_users(): batches of user starts with a yield to the thread's reactor between them.
#include "server/user_start.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace stampede::server {

namespace net = boost::asio;

net::awaitable<void> start_users(std::uint64_t users, std::function<void(std::uint64_t)> start_one,
                                 std::chrono::nanoseconds spacing, const std::uint64_t* starting,
                                 std::chrono::steady_clock::time_point until,
                                 std::chrono::nanoseconds offset) {
  const auto executor = co_await net::this_coro::executor;
  if (spacing.count() > 0) {
    net::steady_timer timer(executor);
    const auto first = std::chrono::steady_clock::now() + offset;
    for (std::uint64_t user = 0; user < users; ++user) {
      const auto at = first + spacing * static_cast<std::int64_t>(user);
      if (at < until) {
        timer.expires_at(at);
        co_await timer.async_wait(net::as_tuple(net::use_awaitable));
      }
      start_one(user);
    }
    co_return;
  }
  net::steady_timer wait(executor);
  for (std::uint64_t user = 0; user < users; ++user) {
    if (user > 0 && user % start_batch == 0) co_await net::post(executor, net::use_awaitable);
    while (starting != nullptr && *starting >= start_window) {
      wait.expires_after(std::chrono::milliseconds(1));
      co_await wait.async_wait(net::as_tuple(net::use_awaitable));
    }
    start_one(user);
  }
}

}  // namespace stampede::server
