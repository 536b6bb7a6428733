// Test double for the user loop and the engine: a Client that answers from a script, no sockets.
#pragma once

#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "server/client/client.hpp"

namespace stampede::server::testing {

/// A clock the test moves by hand: the fake client advances it by each exchange's latency.
struct FakeClock {
  static inline std::chrono::steady_clock::time_point now_{};
  static std::chrono::steady_clock::time_point now() { return now_; }
};

/// One scripted answer: how long the exchange takes on the fake clock and what came back.
struct Answer {
  std::chrono::nanoseconds latency{0};
  model::ErrorKind error = model::ErrorKind::none;
  int status = 200;
};

/// Shared by every fake client of a test: the script, what was sent, how many are in flight.
struct FakeServer {
  std::function<Answer(std::size_t exchange)> script = [](std::size_t) { return Answer{}; };
  std::vector<const client::PreparedRequest*> sent;  ///< every request, in order
  std::vector<const client::ClientSetup*> clients;   ///< the setup of every client made
  std::chrono::milliseconds wall_delay{0};           ///< > 0: each exchange waits this long
  std::atomic<std::uint64_t> started{0};
  std::atomic<std::uint64_t> completed{0};
};

/// Answers each exchange from the FakeServer's script, at once or after a real timer.
class FakeClient final : public client::Client {
 public:
  explicit FakeClient(FakeServer& server) : server_(server) {}

  client::net::awaitable<void> exchange(const client::PreparedRequest& request,
                                        model::Response& response) override {
    response.clear();
    const auto index = server_.started++;
    if (server_.wall_delay.count() > 0) {
      client::net::steady_timer timer(co_await client::net::this_coro::executor,
                                      server_.wall_delay);
      co_await timer.async_wait(client::net::as_tuple(client::net::use_awaitable));
    } else {
      server_.sent.push_back(&request);
    }
    const auto answer = server_.script(index);
    FakeClock::now_ += answer.latency;
    response.error = answer.error;
    response.status = answer.error == model::ErrorKind::none ? answer.status : 0;
    ++server_.completed;
  }

 private:
  FakeServer& server_;
};

/// A client factory handing out FakeClients of `server` (it must outlive the run).
inline std::function<std::unique_ptr<client::Client>(const client::ClientSetup&,
                                                     client::ThreadContext&, client::UserId)>
fake_factory(FakeServer& server) {
  return [&server](const client::ClientSetup& setup, client::ThreadContext&, client::UserId) {
    if (server.wall_delay.count() == 0) server.clients.push_back(&setup);
    return std::make_unique<FakeClient>(server);
  };
}

}  // namespace stampede::server::testing
