// start_users(): batches of user starts with a yield to the thread's reactor between them.
#include "server/user_start.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace stampede::server {

namespace net = boost::asio;

net::awaitable<void> start_users(std::uint64_t users,
                                 std::function<void(std::uint64_t)> start_one) {
  const auto executor = co_await net::this_coro::executor;
  for (std::uint64_t user = 0; user < users; ++user) {
    if (user > 0 && user % start_batch == 0) co_await net::post(executor, net::use_awaitable);
    start_one(user);
  }
}

}  // namespace stampede::server
