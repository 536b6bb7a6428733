// An HTTP/2 connection that many users of a thread share (-m): its reader and writer, and the
// slot that keeps one open for them.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "server/client/client.hpp"
#include "server/client/h2_streams.hpp"

namespace stampede::client {

/// One connection carrying the streams of the users that share it, on their thread. A reader
/// coroutine feeds what arrives to the session, which completes each stream's H2Call; a writer
/// coroutine sends what the session has to send, woken when a call is submitted or withdrawn,
/// so that the requests of users submitting in the same pass of the reactor share a write.
/// It keeps itself alive (its coroutines own it) while connecting or open; the slot only
/// points at it. Calls submitted while it connects wait in the session.
template <class Stream>
class H2Connection final : public std::enable_shared_from_this<H2Connection<Stream>>,
                           public Watchdog::Guarded {
 public:
  using Clock = std::chrono::steady_clock;

  H2Connection(const ClientSetup& setup, ThreadContext& thread);
  ~H2Connection();
  H2Connection(const H2Connection&) = delete;
  H2Connection& operator=(const H2Connection&) = delete;

  /// Connects (TCP, TLS offering "h2" by ALPN) within -t, or `connect_timeout` if shorter,
  /// then reads and writes until the connection ends.
  void start(std::chrono::nanoseconds connect_timeout);
  /// Hands `call` to the session. False (call.done, call.error set) when it takes no more.
  bool submit(H2Call& call);
  /// The call gives up (-t): its stream is reset, its neighbours go on.
  void withdraw(H2Call& call);
  /// The last user is done: GOAWAY(NO_ERROR), then the connection closes; waits until it has
  /// (a second at most), so that the run does not end before the server heard it.
  net::awaitable<void> goodbye();

  /// New streams may go here (no GOAWAY, not failed).
  [[nodiscard]] bool accepting() const { return !ended_ && streams_.accepting(); }
  /// The server selected HTTP/1.1 by ALPN: its calls failed, and its users go over HTTP/1.1.
  [[nodiscard]] bool chose_http1() const { return http1_; }

  [[nodiscard]] Clock::time_point deadline() const override { return deadline_; }
  void expire() override;  ///< a connect past its time: the socket closes under it
  void end_hold() override {}

 private:
  static net::awaitable<void> run(std::shared_ptr<H2Connection> self,
                                  std::chrono::nanoseconds connect_timeout);
  static net::awaitable<void> write_all(std::shared_ptr<H2Connection> self);
  net::awaitable<bool> connect(std::chrono::nanoseconds connect_timeout);
  net::awaitable<void> read_all();
  void kick();
  void fail(const boost::system::error_code& error, Phase phase);
  void end();

  const ClientSetup& setup_;
  ThreadContext& thread_;
  std::optional<Stream> stream_;
  H2Streams streams_;
  H2Call* opener_ = nullptr;  ///< the call that made it connect, told the connect time
  net::steady_timer wake_;    ///< the idle writer waits on it
  net::steady_timer gone_;    ///< goodbye() waits on it until the connection ends
  std::vector<char> input_;
  Clock::time_point deadline_ = Clock::time_point::max();
  bool connected_ = false;
  bool writer_idle_ = false;
  bool ended_ = false;    ///< closed or failed: nothing more to read or write
  bool closing_ = false;  ///< our GOAWAY: the close that follows is no failure
  bool http1_ = false;
};

/// Where the users of one destination on one thread that share connection `index` find it:
/// the open one while it takes new streams, else a new one (after a GOAWAY, a failure, or at
/// the first request).
template <class Stream>
class H2Shared {
 public:
  H2Shared(const ClientSetup& setup, ThreadContext& thread) : setup_(setup), thread_(thread) {}

  /// The connection the next stream goes on, started if new (it then counts as `opened`).
  std::shared_ptr<H2Connection<Stream>> connection(std::chrono::nanoseconds connect_timeout);
  void join() { ++users_; }
  /// A user is done; after the last, the connection says goodbye (and this waits for it).
  net::awaitable<void> leave();
  /// The server selected HTTP/1.1 by ALPN: users go over HTTP/1.1, each on its own.
  void fall_back() { http1_ = true; }
  [[nodiscard]] bool http1() const { return http1_; }

 private:
  const ClientSetup& setup_;
  ThreadContext& thread_;
  std::weak_ptr<H2Connection<Stream>> current_;
  std::size_t users_ = 0;
  bool http1_ = false;
};

}  // namespace stampede::client
