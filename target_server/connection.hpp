// One client connection of the target server (HTTP/1.x, plain or TLS) and the idle sweep.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "target_server/admission.hpp"
#include "target_server/server.hpp"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace stampede::target_server {

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

  /// `idle_timeout`: how long a connection may go without progress before it is closed (0:
  /// never); `max_streams`: the concurrent streams its HTTP/2 connections allow; `in_flight`:
  /// the limit its requests count under, shared with the other threads' sets (null: none).
  explicit ConnectionSet(std::chrono::milliseconds idle_timeout,
                         std::uint32_t max_streams = default_max_streams,
                         InFlightLimit* in_flight = nullptr)
      : idle_timeout_(idle_timeout), max_streams_(max_streams), in_flight_(in_flight) {}

  /// 0: idle connections are never closed.
  [[nodiscard]] std::chrono::milliseconds idle_timeout() const { return idle_timeout_; }
  /// When a connection that last made progress at `from` is idle and to be closed: `from` plus
  /// the idle timeout, or never (time_point::max()) without one.
  [[nodiscard]] std::chrono::steady_clock::time_point idle_deadline(
      std::chrono::steady_clock::time_point from) const;
  /// SETTINGS_MAX_CONCURRENT_STREAMS of its HTTP/2 connections.
  [[nodiscard]] std::uint32_t max_streams() const { return max_streams_; }
  /// The limit on requests served at once that its connections' requests count under (shared
  /// by every thread: InFlightLimit is atomic); null without one.
  [[nodiscard]] InFlightLimit* in_flight() const { return in_flight_; }
  /// How often the sweep runs: a tenth of the timeout, between 10 ms and 1 s; 1 s without a
  /// timeout.
  [[nodiscard]] std::chrono::milliseconds sweep_period() const;
  /// The number of connections in the set.
  [[nodiscard]] std::size_t size() const { return size_; }
  /// How many connections have joined since the set was made; readable from any thread.
  [[nodiscard]] std::uint64_t joined() const { return joined_.load(std::memory_order_relaxed); }

  /// Adds `entry`, which must stay put until leave(entry).
  void join(Entry& entry);
  /// Adds `entry` of a connection that joined before under another protocol (HTTP/1.1 handed
  /// over to HTTP/2): joined() does not count it again.
  void rejoin(Entry& entry);
  void leave(Entry& entry);
  /// Closes the socket of every connection whose deadline is before `now`; returns how many.
  std::size_t close_idle(std::chrono::steady_clock::time_point now);

 private:
  std::chrono::milliseconds idle_timeout_;
  std::uint32_t max_streams_;
  InFlightLimit* in_flight_;
  Entry* first_ = nullptr;
  std::size_t size_ = 0;
  std::atomic<std::uint64_t> joined_{0};  // once per connection, not per request
};

/// Serves HTTP/1.x on `socket` until the peer closes, a response says "Connection: close", a
/// request is malformed (400) or too large (431), or the idle sweep closes it; or hands it over
/// to HTTP/2 (h2_connection.hpp) if its first bytes are HTTP/2's connection preface (prior
/// knowledge) or a request asks to upgrade to h2c, or to WebSocket (websocket.hpp). Run it on
/// the socket's executor, whose thread alone uses `connections`. Never throws.
boost::asio::awaitable<void> serve_connection(boost::asio::ip::tcp::socket socket,
                                              ConnectionSet* connections);

/// Serves TLS on `socket` with `tls`: after the handshake, HTTP/2 if ALPN selected h2, else
/// HTTP/1.x as serve_connection() does (WebSocket included; "Upgrade: h2c" is ignored, as
/// RFC 7540 3.2 says for TLS). A failed handshake closes it. Never throws.
boost::asio::awaitable<void> serve_tls_connection(boost::asio::ip::tcp::socket socket,
                                                  ConnectionSet* connections,
                                                  boost::asio::ssl::context* tls);

/// Closes the idle connections of `connections` every sweep_period(), for as long as the
/// io_context runs. Run it on the context whose connections these are.
boost::asio::awaitable<void> sweep_idle(ConnectionSet* connections);

}  // namespace stampede::target_server
