// Test double for the user loop and the engine: a Client that answers from a script, no sockets.
#pragma once

#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
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

/// What a fake client was asked to do, in the order it was asked (long-lived tests read it).
enum class Call { open, exchange, hold, finish };

/// Shared by every fake client of a test: the script, what was sent, how many are in flight.
struct FakeServer {
  std::function<Answer(std::size_t exchange)> script = [](std::size_t) { return Answer{}; };
  /// The clients hold long-lived connections (WebSocket's): opened apart from their exchanges,
  /// by open(), which answers from `open_script`; any failed exchange drops the connection.
  bool long_lived = false;
  std::function<Answer(std::size_t open)> open_script = [](std::size_t) { return Answer{}; };
  std::function<void()> while_opening = [] {};  ///< what happens during each open()
  /// The clients open their connections inside exchange() and hold them (HTTP/2 with --hold):
  /// an exchange without an open connection opens one, as does one that `replaces` (the
  /// server had sent GOAWAY), unless it fails to `connect`.
  bool opens_within = false;
  std::function<bool(std::size_t exchange)> replaces = [](std::size_t) { return false; };
  /// Messages each held connection receives before its hold ends, `push_gap` apart on the
  /// fake clock (--listen records them).
  std::size_t pushed = 0;
  std::chrono::nanoseconds push_gap{0};
  /// How every hold ends (it closes the connection either way, as the real client does).
  model::ErrorKind hold_outcome = model::ErrorKind::none;
  std::function<void()> while_held = [] {};  ///< what happens as each hold ends (a stop)
  /// The clients hold apart from the user's coroutine (LongLived::hold), as the WebSocket client
  /// does; otherwise the user holds with receive().
  bool holds_apart = false;
  std::size_t opens = 0;    ///< open() calls so far, across clients
  std::vector<Call> calls;  ///< every call of every client, in order (wall_delay 0 only)
  std::vector<std::chrono::steady_clock::time_point> held_until;  ///< each hold's `until`
  std::vector<const client::PreparedRequest*> sent;               ///< every request, in order
  std::vector<const client::ClientSetup*> clients;  ///< the setup of every client made
  std::chrono::milliseconds wall_delay{0};          ///< > 0: each exchange waits this long
  std::atomic<std::uint64_t> started{0};
  std::atomic<std::uint64_t> completed{0};
};

/// Answers each exchange from the FakeServer's script, at once or after a real timer.
class FakeClient final : public client::Client, private client::LongLived {
 public:
  FakeClient(FakeServer& server, client::net::any_io_executor executor)
      : server_(server), executor_(std::move(executor)) {}

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
      server_.calls.push_back(Call::exchange);
    }
    const auto answer = server_.script(index);
    FakeClock::now_ += answer.latency;
    response.error = answer.error;
    response.status = answer.error == model::ErrorKind::none ? answer.status : 0;
    if (server_.opens_within && (!open_ || server_.replaces(index))) {
      response.new_connection = answer.error != model::ErrorKind::connect;
      open_ = response.new_connection;
    }
    if (answer.error != model::ErrorKind::none) open_ = false;  // a failure closes, as ClientBase
    ++server_.completed;
  }

  client::LongLived* long_lived() override {
    return server_.long_lived || server_.opens_within ? this : nullptr;
  }
  [[nodiscard]] bool opens_apart() const override { return server_.long_lived; }
  [[nodiscard]] bool is_open() const override { return open_; }

  /// The open's latency moves the fake clock and is its connect time; a failure keeps its
  /// status, as a refused upgrade does.
  client::net::awaitable<void> open(const client::PreparedRequest& /*request*/,
                                    model::Response& response) override {
    response.clear();
    server_.calls.push_back(Call::open);
    server_.while_opening();
    const auto answer = server_.open_script(server_.opens++);
    FakeClock::now_ += answer.latency;
    response.error = answer.error;
    response.status = answer.status;
    response.connect = answer.latency;
    response.new_connection = true;
    open_ = answer.error == model::ErrorKind::none;
    co_return;
  }

  client::net::awaitable<void> receive(std::chrono::steady_clock::time_point until,
                                       model::Response& response) override {
    response.clear();
    response.websocket = true;
    if (received_ < server_.pushed) {
      ++received_;
      FakeClock::now_ += server_.push_gap;
      response.bytes_received = 1;
      co_return;
    }
    server_.calls.push_back(Call::hold);
    server_.held_until.push_back(until);
    server_.while_held();
    response.error = server_.hold_outcome;
    open_ = false;
    co_return;
  }

  /// Ends the hold at the executor's next turn (never inside the call, as a real read).
  bool hold(std::chrono::steady_clock::time_point until,
            std::shared_ptr<client::HoldOwner> owner) override {
    if (!server_.holds_apart) return false;
    server_.calls.push_back(Call::hold);
    server_.held_until.push_back(until);
    client::net::post(executor_, [this, owner = std::move(owner)] {
      server_.while_held();
      open_ = false;
      owner->hold_ended(*this, server_.hold_outcome);
    });
    return true;
  }

  client::net::awaitable<void> finish() override {
    if (server_.wall_delay.count() == 0) server_.calls.push_back(Call::finish);
    open_ = false;
    co_return;
  }

 private:
  FakeServer& server_;
  client::net::any_io_executor executor_;
  bool open_ = false;
  std::size_t received_ = 0;  ///< messages this client's holds received
};

/// A client factory handing out FakeClients of `server` (it must outlive the run).
inline std::function<std::unique_ptr<client::Client>(const client::ClientSetup&,
                                                     client::ThreadContext&, client::UserId)>
fake_factory(FakeServer& server) {
  return
      [&server](const client::ClientSetup& setup, client::ThreadContext& thread, client::UserId) {
        if (server.wall_delay.count() == 0) server.clients.push_back(&setup);
        return std::make_unique<FakeClient>(server, thread.executor);
      };
}

}  // namespace stampede::server::testing
