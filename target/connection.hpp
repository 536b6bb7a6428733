// One client connection of the target server (read, parse, answer, repeat) and the idle sweep.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace stampede::target {

/// The open connections of one io_context, so that one sweep closes all the idle ones: a timer
/// per connection would cost timer syscalls per connection. Only that context's thread uses it,
/// but for joined(), which any thread may read.
class ConnectionSet {
 public:
  /// One connection as the sweep sees it; its owner keeps `deadline` current.
  struct Entry {
    boost::asio::ip::tcp::socket* socket = nullptr;
    std::chrono::steady_clock::time_point deadline;
    Entry* previous = nullptr;
    Entry* next = nullptr;
  };

  /// `idle_timeout`: how long a connection may go without progress before it is closed.
  explicit ConnectionSet(std::chrono::milliseconds idle_timeout) : idle_timeout_(idle_timeout) {}

  [[nodiscard]] std::chrono::milliseconds idle_timeout() const { return idle_timeout_; }
  /// How often the sweep runs: a tenth of the timeout, between 10 ms and 1 s.
  [[nodiscard]] std::chrono::milliseconds sweep_period() const;
  /// The number of connections in the set.
  [[nodiscard]] std::size_t size() const { return size_; }
  /// How many connections have joined since the set was made; readable from any thread.
  [[nodiscard]] std::uint64_t joined() const { return joined_.load(std::memory_order_relaxed); }

  /// Adds `entry`, which must stay put until leave(entry).
  void join(Entry& entry);
  void leave(Entry& entry);
  /// Closes the socket of every connection whose deadline is before `now`; returns how many.
  std::size_t close_idle(std::chrono::steady_clock::time_point now);

 private:
  std::chrono::milliseconds idle_timeout_;
  Entry* first_ = nullptr;
  std::size_t size_ = 0;
  std::atomic<std::uint64_t> joined_{0};  // once per connection, not per request
};

/// Serves HTTP/1.x on `socket` until the peer closes, a response says "Connection: close", a
/// request is malformed (400) or too large (431), or the idle sweep closes it. Run it on the
/// socket's executor, whose thread alone uses `connections`. Never throws.
boost::asio::awaitable<void> serve_connection(boost::asio::ip::tcp::socket socket,
                                              ConnectionSet* connections);

/// Closes the idle connections of `connections` every sweep_period(), for as long as the
/// io_context runs. Run it on the context whose connections these are.
boost::asio::awaitable<void> sweep_idle(ConnectionSet* connections);

}  // namespace stampede::target
