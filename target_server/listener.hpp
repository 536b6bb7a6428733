// The target server's listening socket and accept loop: binding, batched accepts, dealing.
#pragma once

#include <cstddef>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "target_server/connection.hpp"
#include "target_server/server.hpp"

namespace stampede::target_server {

/// The listen() backlog asked for. Linux clamps it to net.core.somaxconn (4096 by default since
/// 5.4), so a machine whose somaxconn was raised gets the longer queue without a rebuild; Asio's
/// max_listen_connections is the compile-time SOMAXCONN (4096), which would stay below it.
inline constexpr int listen_backlog = 65535;

/// How many waiting connections one accept turn takes at most. Under load the accept loop gets
/// a turn only after many busy connections have had theirs (Asio runs ready handlers first in,
/// first out); taking one connection a turn left thousands of connected clients unserved for
/// seconds. Bounded (one default-sized queue) so that connects arriving as fast as they are
/// accepted cannot hold the thread forever.
inline constexpr std::size_t accept_batch = 4096;

/// Opens and binds options.bind:options.port without listening (SO_REUSEADDR, and SO_REUSEPORT
/// if options.reuse_port). Throws std::runtime_error ("cannot listen on ADDR:PORT: why").
boost::asio::ip::tcp::acceptor bind_port(boost::asio::io_context& context,
                                         const ServeOptions& options);

/// Opens, binds and listens (backlog listen_backlog) on options.bind:options.port. The acceptor
/// is non-blocking, as accept_waiting() needs. Throws std::runtime_error ("cannot listen on
/// ADDR:PORT: why") on failure.
boost::asio::ip::tcp::acceptor listen(boost::asio::io_context& context,
                                      const ServeOptions& options);

/// One thread's share of the server: its io_context and the connections living on it.
struct Shard {
  boost::asio::io_context* context;
  ConnectionSet* connections;
};

/// Deals accepted connections round-robin to the shards; each connection then lives on its
/// shard's thread alone (no locks on the request path). Used by the accepting thread only.
class Dealer {
 public:
  /// `shards`: at least one. With `tls`, the connections are TLS (serve_tls_connection).
  explicit Dealer(std::vector<Shard> shards, boost::asio::ssl::context* tls = nullptr)
      : shards_(std::move(shards)), tls_(tls) {}

  /// The context the next accepted socket must belong to.
  [[nodiscard]] boost::asio::io_context& next_context() const {
    return *shards_[next_ % shards_.size()].context;
  }

  /// Starts serving `socket` (made on next_context()) on that shard; the next one goes to the
  /// following shard.
  void deal(boost::asio::ip::tcp::socket socket);

 private:
  std::vector<Shard> shards_;
  boost::asio::ssl::context* tls_;
  std::size_t next_ = 0;
};

/// Accepts the connections already waiting in `acceptor`'s queue, `limit` at most, without
/// waiting, and deals each. Stops at the first failure: would_block means the queue is empty;
/// any other (EMFILE) is left for the next async accept to report. Returns how many it took.
std::size_t accept_waiting(boost::asio::ip::tcp::acceptor& acceptor, Dealer& dealer,
                           std::size_t limit);

/// Accepts connections until the acceptor closes or its context stops: waits for one, then
/// takes every other one already waiting (accept_waiting) before waiting again.
boost::asio::awaitable<void> accept_connections(boost::asio::ip::tcp::acceptor* acceptor,
                                                Dealer dealer);

}  // namespace stampede::target_server
