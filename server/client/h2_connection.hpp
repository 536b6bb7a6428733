// An HTTP/2 connection, a user's own or one many users of a thread share (-m): its reader and
// writer, its hold after the requests, and the slot that keeps a shared one open.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/client/client.hpp"
#include "server/client/h2_idle.hpp"
#include "server/client/h2_streams.hpp"
#include "server/client/tls_session.hpp"

namespace stampede::client {

/// A user's call on a connection, and the user's coroutine waiting for its end.
struct H2Waiter : H2Call {
  /// Resumes the waiting user; empty while the user runs.
  net::any_completion_handler<void()> resume;
};

/// Who hears that a held connection (H2Connection::hold()) is over: its client.
class H2HoldEnd {
 public:
  /// How a hold ended: by our goodbye, by the server (its GOAWAY or its close: `error`), or
  /// lost (`error`: what failed; the protocol's error if the server broke it).
  enum class How : unsigned char { goodbye, by_server, lost };
  /// The connection is closed.
  virtual void held_ended(How how, const boost::system::error_code& error) = 0;

 protected:
  ~H2HoldEnd() = default;
};

/// One connection carrying the streams of its users, on their thread: a user's own (one stream
/// at a time, counted in wire bytes, held after the requests with --hold), or shared (-m).
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
/// a shared one's slot only points at it. Calls submitted while it connects wait in the session.
template <class Stream>
class H2Connection final : public std::enable_shared_from_this<H2Connection<Stream>>,
                           public Watchdog::Guarded {
 public:
  using Clock = std::chrono::steady_clock;

  /// `tls_session`: where the TLS session to resume is kept; it outlives the connection.
  H2Connection(const ClientSetup& setup, ThreadContext& thread, H2Streams::Use use,
               TlsSession& tls_session);
  H2Connection(const H2Connection&) = delete;
  H2Connection& operator=(const H2Connection&) = delete;

  /// Connects (TCP, TLS offering "h2" by ALPN) within -t, or `connect_timeout` if shorter,
  /// then reads and writes until the connection ends.
  void start(std::chrono::nanoseconds connect_timeout);
  /// A user's own connection switched to h2c by a 101 (`stream`, with `rest` read after it):
  /// `call`, whose request went as HTTP/1.1 (`head`: a HEAD), gets its response on stream 1.
  /// False (call.error set) when the session refuses.
  bool adopt(Stream stream, std::string_view rest, H2Waiter& call, bool head);
  /// Hands `call` to the session. False (call.done, call.error set) when it takes no more.
  /// Once its stream is over, `call.resume` is called: by the reader in place, or posted.
  bool submit(H2Waiter& call);
  /// A call whose request streams (H2Call::outgoing) has more to send: it goes out soon.
  void send_more(H2Waiter& call);
  /// The call gives up (-t, a stopping run): its stream is reset, its neighbours go on; it is
  /// not resumed (nor left among the calls to resume: its user may end before they are).
  void withdraw(H2Waiter& call);
  /// The last user is done: GOAWAY(NO_ERROR), then the connection closes; waits until it has
  /// (a second at most), so that the run does not end before the server heard it.
  net::awaitable<void> goodbye();
  /// Closes at once, no goodbye (a user's own: a failed exchange, no keep-alive); the calls
  /// still on it fail with operation_aborted.
  void close();

  /// New streams may go here (no GOAWAY, not failed).
  [[nodiscard]] bool accepting() const { return !ended_ && streams_ && streams_->accepting(); }
  /// Connected, and not yet closed.
  [[nodiscard]] bool open() const { return connected_ && !ended_; }
  /// It connected (it may have closed since).
  [[nodiscard]] bool connected() const { return connected_; }
  /// The server's SETTINGS arrived: it speaks HTTP/2.
  [[nodiscard]] bool server_settings() const { return streams_ && streams_->server_settings(); }
  /// The server selected HTTP/1.1 by ALPN: its calls failed, and its users go over HTTP/1.1.
  [[nodiscard]] bool chose_http1() const { return http1_; }

  /// --hold, after the requests (a user's own): nghttp2's session is dropped for an H2Idle,
  /// which answers the server's PINGs and SETTINGS while the reader waits; `holder` hears the
  /// end. False when the connection is not open.
  bool hold(H2HoldEnd& holder);
  /// Held: queues a PING (--ping), whose ACK clears ping_unanswered().
  void ping();
  [[nodiscard]] bool ping_unanswered() const { return idle_ && idle_->ping_unanswered(); }
  /// Held: when bytes last came (--ping's silence counts from there).
  [[nodiscard]] Clock::time_point heard_at() const { return heard_at_; }
  /// Held: GOAWAY(NO_ERROR) goes out; the hold ends when the server closes (or the holder's
  /// clock closes it first).
  void say_goodbye();

  [[nodiscard]] Clock::time_point deadline() const override { return deadline_; }
  void expire() override;  ///< a connect past its time: the socket closes under it
  void end_hold() override {}

 private:
  static net::awaitable<void> run(std::shared_ptr<H2Connection> self,
                                  std::chrono::nanoseconds connect_timeout);
  net::awaitable<bool> connect(std::chrono::nanoseconds connect_timeout);
  void opened();
  void read();
  void read_failed(const boost::system::error_code& error);
  bool take(std::string_view bytes, bool write);
  bool take_held(std::string_view bytes);
  void count_read(std::size_t n);
  void count_written(std::size_t n);
  static void call_done(H2Call& call);
  void settle(bool write = true);
  void kick();
  void flush();
  void flush_for(model::Response& response);
  std::string_view next_output();
  void wrote_all();
  std::size_t write_now(std::string_view output);
  void write_rest(std::string_view rest);
  void fail(const boost::system::error_code& error, Phase phase);
  void claim_connect(H2Call& call, Clock::duration took);
  void hand_over();
  void end_held(H2HoldEnd::How how, const boost::system::error_code& error);
  void end();

  const ClientSetup& setup_;
  ThreadContext& thread_;
  TlsSession& tls_session_;  ///< the last TLS session, resumed when a connection is made again
  std::optional<Stream> stream_;
  /// nghttp2's session, until a hold hands it over to idle_.
  std::unique_ptr<H2Streams> streams_;
  std::optional<H2Idle> idle_;   ///< a held connection's frames, in the session's place
  H2HoldEnd* holder_ = nullptr;  ///< while held: told at the end
  std::string held_output_;      ///< held: the frames being written
  std::string_view unsent_;      ///< what a write under way still has to write
  H2Call* opener_ = nullptr;     ///< the call that made it connect, told the connect time
  std::optional<Clock::duration> unclaimed_connect_;  ///< connected with no call: the next's
  std::unique_ptr<net::steady_timer> gone_;  ///< goodbye() waits on it until the connection ends
  std::vector<H2Waiter*> ready_;             ///< calls over, their users not yet resumed
  Clock::time_point deadline_ = Clock::time_point::max();
  Clock::time_point heard_at_;  ///< held: the last bytes read
  /// A user's own: its call's first bytes went out (`waiting` starts); zero until they do.
  Clock::time_point written_at_;
  boost::system::error_code ended_by_;        ///< why it failed, if it did
  model::Response* last_response_ = nullptr;  ///< flush_for()'s, counting the call's last writes
  /// A user's own: bytes read and written with no call on it, the next call's in its counts.
  std::size_t unclaimed_read_ = 0, unclaimed_written_ = 0;
  bool own_;
  bool connected_ = false;
  bool settling_ = false;       ///< resuming users: their submits wait for one flush after
  bool settle_posted_ = false;  ///< calls ended outside the reader: one posted settle
  bool flush_posted_ = false;   ///< calls submitted outside the reader: one posted flush
  bool readable_ = true;        ///< no short read since the last wait for readability
  bool writing_ = false;        ///< an async write is under way; the output waits for it
  bool ended_ = false;          ///< closed or failed: nothing more to read or write
  bool closing_ = false;        ///< our GOAWAY: the close that follows is no failure
  bool http1_ = false;
  bool expired_ = false;  ///< the connect ran out of time: its failure is a timeout
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
  TlsSession tls_session_;  ///< resumed by each new connection of the slot
  std::weak_ptr<H2Connection<Stream>> current_;
  std::size_t users_ = 0;
  bool http1_ = false;
};

}  // namespace stampede::client
