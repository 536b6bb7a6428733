// An HTTP/2 connection that many users of a thread share (-m): its reader and writer, and the
// slot that keeps one open for them.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "server/client/client.hpp"
#include "server/client/h2_streams.hpp"
#include "server/client/tls_session.hpp"

namespace stampede::client {

/// A user's call on a shared connection, and the user's coroutine waiting for its end.
struct H2Waiter : H2Call {
  /// Resumes the waiting user; empty while the user runs.
  net::any_completion_handler<void()> resume;
};

/// One connection carrying the streams of the users that share it, on their thread.
///
/// Why not a reader and a writer coroutine woken by timers: on this path each request's
/// wake-ups were the cost. Every handler Asio posts is a pass through its scheduler and an
/// epoll_wait(0), and a steady_timer per user and one for the writer made about two of each
/// per request, with the kernel's share of the CPU at 60%. So the reader, once it has fed what
/// arrived to the session, resumes the users whose streams ended in place (they submit their
/// next requests there), then writes all those requests at once, straight from the socket
/// when it takes them; only what the socket does not take waits for it to be writable.
/// Calls submitted outside the reader (a user's first request, a user back from a timer)
/// share one posted flush.
///
/// `Stream` is a TcpStream, or over TLS a TlsSocket (OpenSSL on the socket itself, see why
/// there); both read and write without waiting, and say would_block when they must wait.
///
/// It keeps itself alive (its reader and pending handlers own it) while connecting or open;
/// the slot only points at it. Calls submitted while it connects wait in the session.
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
  /// Once its stream is over, `call.resume` is called: by the reader in place, or posted.
  bool submit(H2Waiter& call);
  /// The call gives up (-t): its stream is reset, its neighbours go on; it is not resumed.
  void withdraw(H2Waiter& call);
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
  net::awaitable<bool> connect(std::chrono::nanoseconds connect_timeout);
  void read();
  void read_failed(const boost::system::error_code& error);
  bool take(std::string_view bytes, bool write);
  static void call_done(H2Call& call);
  void settle(bool write = true);
  void kick();
  void flush();
  std::size_t write_now(std::string_view output);
  void write_rest(std::string_view rest);
  void fail(const boost::system::error_code& error, Phase phase);
  void claim_connect(H2Call& call, Clock::duration took);
  void end();

  const ClientSetup& setup_;
  ThreadContext& thread_;
  TlsSession tls_session_;  ///< the last TLS session, resumed when the connection is made again
  std::optional<Stream> stream_;
  H2Streams streams_{H2Streams::Use::shared};
  H2Call* opener_ = nullptr;  ///< the call that made it connect, told the connect time
  std::optional<Clock::duration> unclaimed_connect_;  ///< connected with no call: the next's
  net::steady_timer gone_;        ///< goodbye() waits on it until the connection ends
  std::vector<H2Waiter*> ready_;  ///< calls over, their users not yet resumed
  Clock::time_point deadline_ = Clock::time_point::max();
  bool connected_ = false;
  bool settling_ = false;       ///< resuming users: their submits wait for one flush after
  bool settle_posted_ = false;  ///< calls ended outside the reader: one posted settle
  bool flush_posted_ = false;   ///< calls submitted outside the reader: one posted flush
  bool readable_ = true;        ///< no short read since the last wait for readability
  bool writing_ = false;        ///< an async write is under way; the output waits for it
  bool ended_ = false;          ///< closed or failed: nothing more to read or write
  bool closing_ = false;        ///< our GOAWAY: the close that follows is no failure
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
