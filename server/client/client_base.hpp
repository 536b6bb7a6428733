// ClientBase: what every protocol client does alike: the exchange policy (deadline, retry of a
// stale connection, redirects, content decoding, closing on failure), connecting, failures.
#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>

#include "server/client/classify.hpp"
#include "server/client/client.hpp"
#include "server/client/connect.hpp"
#include "server/client/redirect.hpp"
#include "server/client/tls_socket.hpp"

namespace stampede::client {

/// A user's client under the watchdog of its thread. Subclasses hold the connection, say how to
/// close it, and make attempts; an exchange reads, in each subclass:
///
///     for (auto* current = begin_exchange(request, response); current != nullptr;
///          current = next_request(request, step, response)) { step = <one attempt>; }
///     end_exchange(request, response);
class ClientBase : public Client, public Watchdog::Guarded {
 public:
  using Clock = std::chrono::steady_clock;

  /// `protocol`: the one the subclass speaks, for the requests of redirect hops.
  ClientBase(const ClientSetup& setup, ThreadContext& thread, model::Protocol protocol);
  ~ClientBase() override;
  ClientBase(const ClientBase&) = delete;
  ClientBase& operator=(const ClientBase&) = delete;

  [[nodiscard]] Clock::time_point deadline() const final { return deadline_; }

  void share_cookies(SessionCookies* cookies) override { cookies_ = cookies; }

  /// Past the deadline: a held connection pings if that is what the deadline was for (see
  /// ping_if_due()), or its time is up and it says goodbye (see end_hold()); otherwise closing
  /// the socket fails the pending operation, which then reports a timeout.
  void expire() final {
    if (ping_if_due() || say_goodbye()) return;
    timed_out_ = true;
    close_socket();
  }

  /// The run is stopping: a held connection says goodbye, and so does one waiting for a reply
  /// where its protocol can (its exchange is then cut short).
  void end_hold() final {
    if (!say_goodbye()) cut_short();
  }

 protected:
  /// How an attempt (or a step of one) ended: it goes on (write or read more), the response is
  /// complete, a reused connection turned out closed before any response, or it failed (the
  /// failure recorded in the response).
  enum class Step { more, done, stale, failed };

  /// Closes the socket under the pending operation, if a connection is open.
  virtual void close_socket() = 0;
  /// The deadline passed and closed the socket: the failure under way is a timeout.
  [[nodiscard]] bool timed_out() const { return timed_out_; }
  /// A connection held open (--hold) starts closing as its protocol would and returns true;
  /// any other returns false.
  virtual bool say_goodbye() { return false; }
  /// An exchange waiting for its reply starts closing the connection as its protocol would
  /// (model::Response::cut_short); others go on.
  virtual void cut_short() {}
  /// For a client that keeps its own --ping clock in the deadline while held (HTTP/2; Beast
  /// pings on its own for WebSocket): at a deadline before the hold's end, sends the PING due
  /// and returns true. A PING left unanswered makes it stop holding and return false, so that
  /// say_goodbye() refuses too and the connection is lost as a timeout.
  virtual bool ping_if_due() { return false; }
  /// Drops the connection (and any protocol state on it); the next attempt opens a new one.
  virtual void close() = 0;

  /// An exchange starts: the response is cleared and the clock runs (the request's own
  /// --max-time, else -t). Returns the first request to send: `request`.
  const PreparedRequest* begin_exchange(const PreparedRequest& request, model::Response& response);

  /// After an attempt that ended with `step`: the request to send next, or null when the
  /// exchange is over. A stale reused connection is retried once on a new one (the attempt
  /// returns `stale` only for a request that may be resent); with --digest a 401's challenge is
  /// answered once; with -redirect a 3xx leads to its next hop, up to max_redirects. The
  /// shared cookies (share_cookies()) keep what the response set, and the next request
  /// carries them.
  const PreparedRequest* next_request(const PreparedRequest& request, Step step,
                                      model::Response& response);

  /// The exchange is over: the clock stops; a failed exchange's connection is closed; with
  /// --compressed the body is decoded before a verifier reads it; a response complete after the
  /// deadline is a timeout (the watchdog checks only a few times per timeout).
  void end_exchange(const PreparedRequest& request, model::Response& response);

  /// Starts the clock for work that is not an exchange (holding, a goodbye): until `until`.
  void arm_deadline(Clock::time_point until) {
    timed_out_ = false;
    deadline_ = until;
  }

  /// Starts the clock for a goodbye (a WebSocket close, HTTP/2's GOAWAY and the server's close):
  /// a second at most, or -t if shorter, since Ctrl-C and the end of a run must not wait on a
  /// server that does not answer.
  void arm_goodbye_deadline() { arm_deadline(Clock::now() + goodbye_limit()); }

  /// A goodbye's limit from now, unless the clock stops sooner: a closing handshake the server
  /// started, or the protocol failed, must not wait out -t for the server's TCP close.
  void bound_by_goodbye() { deadline_ = std::min(deadline_, Clock::now() + goodbye_limit()); }

  /// How long a goodbye may take: a second, or -t if shorter.
  [[nodiscard]] Clock::duration goodbye_limit() const {
    return std::min<Clock::duration>(std::chrono::seconds(1), setup_.timeout);
  }

  /// Stops the clock without ending the exchange, for a client that hands it to another (the
  /// HTTP/2 client to its HTTP/1.1 fallback).
  void stop_clock() { deadline_ = Clock::time_point::max(); }

  /// Opens `stream` (TCP, then TLS), within `connect_timeout` if it is set and the exchange's
  /// deadline allows; on success the response records a new connection and its connect time.
  template <class Stream>
  net::awaitable<std::optional<OpenFailure>> connect(std::optional<Stream>& stream,
                                                     model::Response& response,
                                                     std::chrono::nanoseconds connect_timeout) {
    const auto start = Clock::now();
    const auto whole = deadline_;
    if (connect_timeout.count() > 0) deadline_ = std::min(whole, start + connect_timeout);
    auto failure = co_await open_stream(stream, executor_, setup_, tls_session_);
    deadline_ = whole;
    if (!failure) {
      response.connect = Clock::now() - start;
      response.new_connection = true;
      response.negotiated = negotiated(!std::is_same_v<Stream, TcpStream>);
    }
    co_return failure;
  }

  /// Where the user's last TLS session is kept, for its next connection to resume.
  [[nodiscard]] TlsSession& tls_session() { return tls_session_; }

  /// The session whose cookies the exchanges' later requests carry (null: none).
  [[nodiscard]] SessionCookies* shared_cookies() const { return cookies_; }

  /// What a connection this client opened speaks (HTTP/2 over TLS: "h2" once ALPN said so;
  /// a client that falls back to HTTP/1.1 opens its own connection for it).
  [[nodiscard]] model::Negotiated negotiated(bool tls) const {
    switch (protocol_) {
      case model::Protocol::http2:
        return tls ? model::Negotiated::h2 : model::Negotiated::h2c;
      case model::Protocol::websocket:
        return model::Negotiated::websocket;
      case model::Protocol::http1:
        break;
    }
    return model::Negotiated::http1;
  }

  /// -d: whether this exchange is one of the first few logged in full. A plain load first:
  /// every thread shares the counter, so the hot path must not write it.
  [[nodiscard]] bool claim_debug_slot() const {
    return setup_.debug_budget.load(std::memory_order_relaxed) > 0 &&
           setup_.debug_budget.fetch_sub(1, std::memory_order_relaxed) > 0;
  }

  /// How many bytes the next read asks for. Reads start small (1 KiB, as nginx's
  /// client_header_buffer_size), since an idle connection's buffer is memory per user and most
  /// API responses fit, and grow while reads fill the buffer (large bodies then take fewer
  /// syscalls; a user's buffer keeps its size across requests).
  [[nodiscard]] std::size_t read_size() const { return read_size_; }
  /// A read returned `n` bytes: a full one doubles the next, up to 64 KiB.
  void note_read(std::size_t n) {
    if (n == read_size_) read_size_ = std::min(read_size_ * 2, max_read_size);
  }

  /// Sets response.error (a timeout if the watchdog cut the exchange short) and logs the first
  /// failure of each kind, with `hint` if given.
  void record_failure(model::Response& response, Phase phase,
                      const boost::system::error_code& error, std::string_view hint = {}) {
    response.error = failure(phase, error, hint);
  }

  /// The failure kind of `error` (a timeout if the watchdog cut the operation short), logged
  /// once per kind, with `hint` if given.
  model::ErrorKind failure(Phase phase, const boost::system::error_code& error,
                           std::string_view hint = {});

  const ClientSetup& setup_;
  ThreadContext& thread_;
  const net::any_io_executor& executor_;  ///< the thread's (a copy is 56 bytes per connection)

 private:
  static constexpr std::size_t max_read_size = 64 * 1024;

  void carry_cookies(const model::Origin& origin, std::string_view target,
                     const model::Response& response, model::Request& next);

  model::Protocol protocol_;
  std::size_t read_size_ = 1024;
  Clock::time_point started_;  ///< this exchange began (for --digest's challenge)
  Clock::time_point deadline_ = Clock::time_point::max();
  bool timed_out_ = false;
  const PreparedRequest* current_ = nullptr;  ///< the request or the redirect hop being sent
  /// The later request being sent: a redirect's hop, --digest's answer. A pointer, as most
  /// clients never send one and each client is memory per connection.
  std::unique_ptr<Redirect> hop_;
  int hops_ = 0;                       ///< redirects followed in this exchange
  SessionCookies* cookies_ = nullptr;  ///< share_cookies()'s
  bool may_retry_ = true;              ///< a stale connection was not retried yet
  bool answered_ = false;              ///< --digest: this exchange answered its challenge
  TlsSession tls_session_;  ///< the user's last TLS session, resumed by its next connection
};

/// `ClientFor<Stream>(setup, thread, more...)` over TLS when `setup.tls` is set, else over plain
/// TCP: the one place the protocol clients' factories choose a transport.
template <template <class> class ClientFor, class... More>
std::unique_ptr<Client> make_for_transport(const ClientSetup& setup, ThreadContext& thread,
                                           More... more) {
  if (setup.tls != nullptr) return std::make_unique<ClientFor<TlsSocket>>(setup, thread, more...);
  return std::make_unique<ClientFor<TcpStream>>(setup, thread, more...);
}

}  // namespace stampede::client
