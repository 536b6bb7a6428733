// run_user(): the protocol-agnostic user loop (go-stress-testing's per-goroutine loop).
#include "server/worker.hpp"

#include <spdlog/spdlog.h>

namespace stampede::server {

namespace net = boost::asio;

namespace {

/// Names the first response each destination's verifier rejected, once, as clients name the
/// first failure of the other kinds.
void log_first_rejection(const client::ClientSetup& setup, const verify::Verifier& verifier,
                         const model::Response& response) {
  auto& flag = setup.failure_logged[static_cast<std::size_t>(model::ErrorKind::verify)];
  if (flag.test_and_set(std::memory_order_relaxed)) return;
  spdlog::warn("first verify failure: {}", verifier.why_rejected(response));
}

}  // namespace

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
  const auto& destinations = task.flow->destinations();
  std::vector<std::unique_ptr<client::Client>> clients;  // one connection per destination
  clients.reserve(destinations.size());
  for (const auto& destination : destinations) {
    clients.push_back((*task.make_client)(destination->setup, *task.thread, task.user));
  }
  model::Response response;
  Shard& shard = *task.shard;
  const auto& steps = task.flow->steps();
  for (std::uint64_t round = 0; task.rounds == 0 || round < task.rounds; ++round) {
    for (std::size_t step = 0; step < steps.size(); ++step) {
      const auto destination = steps[step].destination;
      auto& client = *clients[destination];
      const auto& prepared = steps[step].prepared;
      ++shard.in_flight;
      bool ready = true;
      if (client.needs_open()) {
        co_await client.open(prepared, response);
        ready = response.error == model::ErrorKind::none;  // else the failure is this request's
        if (ready) shard.record_connection(response);
      }
      const auto start = task.now();
      if (ready) co_await client.exchange(prepared, response);
      const auto latency = task.now() - start;  // the clock stops before verification
      --shard.in_flight;
      const auto result = to_result(response, latency, *task.verifier);
      if (result.error == model::ErrorKind::verify) {
        log_first_rejection(destinations[destination]->setup, *task.verifier, response);
      }
      shard.record(step, result);
    }
  }
  for (auto& client : clients) co_await client->finish();
  --shard.users_running;
  task.on_finish();
}

}  // namespace stampede::server
