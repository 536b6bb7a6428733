// run_user(): the protocol-agnostic user loop (go-stress-testing's per-goroutine loop).
#include "server/worker.hpp"

#include <boost/asio/this_coro.hpp>

namespace stampede::server {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

model::Result to_result(const model::Response& response, std::chrono::nanoseconds latency,
                        const verify::Verifier& verifier) {
  model::Result result;
  result.error = response.error;
  if (result.error == model::ErrorKind::none && !verifier.accept(response)) {
    result.error = model::ErrorKind::verify;
  }
  result.status = response.status;
  result.latency = latency;
  result.connect = response.connect;
  result.waiting = response.waiting;
  result.bytes_received = response.bytes_received;
  result.body_bytes = response.body_bytes;
  result.bytes_sent = response.bytes_sent;
  result.new_connection = response.new_connection;
  result.keep_alive = response.keep_alive;
  result.server = response.server;
  return result;
}

net::awaitable<void> run_user(UserTask task) {
  auto client = client::make_client(co_await net::this_coro::executor, *task.setup, *task.watchdog);
  model::Response response;
  Shard& shard = *task.shard;
  for (std::uint64_t sent = 0; task.requests == 0 || sent < task.requests; ++sent) {
    ++shard.in_flight;
    const auto start = Clock::now();
    co_await client->exchange(*task.request, response);
    const auto latency = Clock::now() - start;  // the clock stops before verification
    --shard.in_flight;
    shard.metrics.add(to_result(response, latency, *task.verifier));
  }
  --shard.users_running;
  task.on_finish();
}

}  // namespace stampede::server
