// run_user(): the protocol-agnostic user loop (go-stress-testing's per-goroutine loop).
#include "server/worker.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <optional>

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

/// After an exchange or a hold on a long-lived connection: if it is no longer open, it ended,
/// closed by the server or lost (a message that timed out drops its connection too).
void note_if_ended(Shard& shard, const client::Client& client, const model::Response& response) {
  if (!client.holds_connections() || client.is_open()) return;
  auto& connections = shard.metrics.long_lived;
  ++connections.ended;
  if (response.error == model::ErrorKind::closed) {
    ++connections.closed_by_server;
  } else if (response.error != model::ErrorKind::none) {
    connections.fail(response.error);
  }
}

/// After an exchange of a client that opens its long-lived connections inside exchange()
/// (HTTP/2 with --hold), given whether one was open before: counts the connection it opened,
/// the one it replaced (the server had closed it or sent GOAWAY) and one it could not open.
/// True when there was a connection to end, for note_if_ended().
bool note_opened_within(Shard& shard, const model::Response& response, bool was_open) {
  auto& connections = shard.metrics.long_lived;
  if (response.new_connection) {
    ++connections.opened;
    if (was_open) {
      ++connections.ended;
      ++connections.closed_by_server;
    }
    return true;
  }
  if (!was_open && response.error != model::ErrorKind::none) connections.fail(response.error);
  return was_open;
}

/// When the user's long-lived connections are held (--hold) until.
std::chrono::steady_clock::time_point hold_until(std::chrono::milliseconds hold) {
  if (hold == std::chrono::milliseconds::max()) return std::chrono::steady_clock::time_point::max();
  return std::chrono::steady_clock::now() + hold;
}

/// Opens `client`'s connection for `request` and counts the connection, or its failure (which
/// is also the failure of the request that needed it). True when it is open.
net::awaitable<bool> open_connection(client::Client& client, const client::PreparedRequest& request,
                                     model::Response& response, Shard& shard) {
  co_await client.open(request, response);
  const bool ready = response.error == model::ErrorKind::none;
  if (ready) {
    shard.record_connection(response);
  } else {
    shard.metrics.long_lived.fail(response.error);
  }
  co_return ready;
}

/// --listen: a connection no request opened (no -data) is opened for the listening, with its
/// destination's first step; one that cannot open counts as a failed message.
net::awaitable<void> open_to_listen(std::vector<std::unique_ptr<client::Client>>& clients,
                                    const UserTask& task, model::Response& response) {
  for (const auto& step : task.flow->steps()) {
    auto& client = *clients[step.destination];
    if (!client.opens_apart() || client.is_open()) continue;
    const bool opened = co_await open_connection(client, step.prepared, response, *task.shard);
    if (!opened) task.shard->record(0, to_result(response, {}, *task.verifier));
  }
}

/// The end of a user: --hold keeps its long-lived connections open for a while (--listen
/// records each message the server sends meanwhile: a success whose latency is the gap since
/// the one before); then each client says goodbye (a WebSocket close frame).
net::awaitable<void> end_user(std::vector<std::unique_ptr<client::Client>>& clients,
                              const UserTask& task, model::Response& response) {
  Shard& shard = *task.shard;
  if (task.listen && !shard.stopping) co_await open_to_listen(clients, task, response);
  if ((task.hold.count() > 0 || task.listen) && !shard.stopping) {
    const auto until = hold_until(
        task.listen && task.hold.count() == 0 ? std::chrono::milliseconds::max() : task.hold);
    for (auto& client : clients) {
      // A stop during an earlier hold ends this one before it starts: only the goodbye is left.
      if (!client->is_open() || shard.stopping) continue;
      auto last = task.now();
      while (client->is_open()) {
        co_await client->receive(until, response);
        if (!client->is_open()) break;
        if (!task.listen) continue;
        const auto now = task.now();
        shard.record(0, to_result(response, now - last, *task.verifier));
        last = now;
      }
      note_if_ended(shard, *client, response);
    }
  }
  for (auto& client : clients) {
    const bool open = client->holds_connections() && client->is_open();
    co_await client->finish();
    if (open) ++shard.metrics.long_lived.ended;
  }
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
  std::optional<net::steady_timer> pause;  // --interval only: the next send's time
  if (task.interval.count() > 0) pause.emplace(co_await net::this_coro::executor);
  auto next_send = std::chrono::steady_clock::now();
  const auto& steps = task.flow->steps();
  // With --listen, -n 0 sends nothing: the listening is what lasts until the run stops.
  const bool endless = task.rounds == 0 && !task.listen;
  for (std::uint64_t round = 0; (endless || round < task.rounds) && !shard.stopping; ++round) {
    for (std::size_t step = 0; step < steps.size() && !shard.stopping; ++step) {
      const auto destination = steps[step].destination;
      auto& client = *clients[destination];
      const auto& prepared = steps[step].prepared;
      if (pause) {  // go-stress-testing's ticker: one send per interval, or at once if late
        pause->expires_at(next_send);
        co_await pause->async_wait(net::as_tuple(net::use_awaitable));
        next_send = std::max(next_send + task.interval, std::chrono::steady_clock::now());
        if (shard.stopping) break;
      }
      ++shard.in_flight;
      const bool was_open = client.is_open();
      bool ready = true;
      if (client.opens_apart() && !client.is_open()) {
        // A failed open is this request's failure.
        ready = co_await open_connection(client, prepared, response, shard);
      }
      const auto start = task.now();
      if (ready) co_await client.exchange(prepared, response);
      const auto latency = task.now() - start;  // the clock stops before verification
      if (ready && client.holds_connections() && !client.opens_apart()) {
        ready = note_opened_within(shard, response, was_open);
      }
      if (ready) note_if_ended(shard, client, response);
      --shard.in_flight;
      const auto result = to_result(response, latency, *task.verifier);
      if (result.error == model::ErrorKind::verify) {
        log_first_rejection(destinations[destination]->setup, *task.verifier, response);
      }
      shard.record(step, result);
    }
  }
  co_await end_user(clients, task, response);
  --shard.users_running;
  task.on_finish();
}

}  // namespace stampede::server
