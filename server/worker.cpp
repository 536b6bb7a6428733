// run_user(): the protocol-agnostic user loop (go-stress-testing's per-goroutine loop).
#include "server/worker.hpp"

#include <boost/asio/this_coro.hpp>

namespace stampede::server {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

model::Result to_result(const model::Response& response, std::chrono::nanoseconds latency,
                        const verify::Verifier& verifier) {
  model::Result result;
  static_cast<model::ExchangeRecord&>(result) = response;
  if (result.error == model::ErrorKind::none && !verifier.accept(response)) {
    result.error = model::ErrorKind::verify;
  }
  result.latency = latency;
  result.server = response.server;
  return result;
}

net::awaitable<void> run_user(UserTask task) {
  const auto executor = co_await net::this_coro::executor;
  std::vector<std::unique_ptr<client::Client>> clients;  // one connection per origin
  for (const auto& origin : task.flow->origins()) {
    clients.push_back(client::make_client(executor, origin->setup, *task.watchdog));
  }
  model::Response response;
  Shard& shard = *task.shard;
  const auto& steps = task.flow->steps();
  for (std::uint64_t round = 0; task.requests == 0 || round < task.requests; ++round) {
    for (std::size_t step = 0; step < steps.size(); ++step) {
      ++shard.in_flight;
      const auto start = Clock::now();
      co_await clients[steps[step].origin]->exchange(steps[step].prepared, response);
      const auto latency = Clock::now() - start;  // the clock stops before verification
      --shard.in_flight;
      shard.record(step, to_result(response, latency, *task.verifier));
    }
  }
  --shard.users_running;
  task.on_finish();
}

}  // namespace stampede::server
