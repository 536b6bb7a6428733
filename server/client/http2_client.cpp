// HTTP/2 client over plain TCP (h2c, prior knowledge) or TLS (ALPN h2): one session per user,
// held open after the requests with --hold (pinged with --ping, closed with GOAWAY).
#include <openssl/ssl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "server/client/classify.hpp"
#include "server/client/client_base.hpp"
#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/failure_log.hpp"
#include "server/client/h2_error.hpp"
#include "server/client/h2_session.hpp"

namespace stampede::client {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto as_tuple = net::as_tuple(net::use_awaitable);
/// A held connection's read buffer: what comes then is control frames (PING ACKs, SETTINGS),
/// and an idle connection's buffer is memory per user.
constexpr std::size_t held_read_size = 512;

template <class Stream>
class Http2Client final : public ClientBase {
 public:
  Http2Client(const ClientSetup& setup, ThreadContext& thread)
      : ClientBase(setup, thread, model::Protocol::http2) {}

  /// One frame for the whole exchange, as in the HTTP/1.1 client: write what the session has
  /// to send, read, feed the session, until the stream closes.
  net::awaitable<void> exchange(const PreparedRequest& request,
                                model::Response& response) override {
    if (http1_) {  // this server did not select "h2": HTTP/1.1 from now on
      co_await http1_->exchange(*request.http1_fallback, response);
      co_return;
    }
    Step step = Step::failed;
    for (const auto* current = begin_exchange(request, response); current != nullptr;
         current = next_request(request, step, response)) {
      if (session_ && !session_->reusable()) close();  // GOAWAY: the next stream needs a new one
      const bool reused = session_.has_value();
      if (!reused) {
        const auto opened = co_await open(response, request.connect_timeout);
        if (opened == Opened::http1) {
          stop_clock();
          co_await http1_->exchange(*request.http1_fallback, response);
          co_return;
        }
        if (opened == Opened::failed) break;
      }
      step = submit(*current, response);
      while (step == Step::more) {
        const auto output = session_->output();
        if (!output.empty()) {
          const auto [error, written] =
              co_await net::async_write(*stream_, net::buffer(output), as_tuple);
          response.bytes_sent += written;
          if (error) {
            step = write_failed(*current, response, reused, error);
            break;
          }
          if (written_at_ == Clock::time_point{}) written_at_ = Clock::now();
          request_written_ = session_->request_sent();
        }
        if (session_->stream_closed() || session_->error()) {
          step = finish(*current, response, reused);
          break;
        }
        read_buffer_.resize(read_size());
        const auto [read_error, n] =
            co_await stream_->async_read_some(net::buffer(read_buffer_), as_tuple);
        step = after_read(*current, response, reused, read_error, n);
      }
    }
    end_exchange(request, response);
    response.keep_alive = session_.has_value() && session_->reusable();
  }

  /// --hold: this user's connection is long-lived, unless the server chose HTTP/1.1 by ALPN.
  [[nodiscard]] bool holds_connections() const override { return setup_.hold && !http1_; }
  [[nodiscard]] bool is_open() const override { return session_.has_value(); }

  /// --hold: reads what the server sends (nghttp2 answers its PINGs and SETTINGS) and, with
  /// --ping, PINGs the connection when it has been silent that long. With no stream open no
  /// message comes, so this returns once the connection is closed: by our GOAWAY at `until`
  /// or end_hold() (no error), by the server's GOAWAY or close (`closed`), or lost (a PING
  /// unanswered for the interval: `timeout`).
  net::awaitable<void> receive(Clock::time_point until, model::Response& response) override {
    response.clear();
    if (!session_) co_return;
    if (session_->server_goaway()) {  // the last response came with the server's goodbye
      end_by_server(response, {});
      close();
      co_return;
    }
    holding_ = true;
    hold_until_ = until;
    read_buffer_ = std::vector<char>(held_read_size);  // a held connection reads small frames
    heard_at_ = Clock::now();
    arm_deadline(next_deadline());
    co_await read_until_closed(response);
  }

  /// A held connection still open (the run stopped before or during the rounds) says goodbye
  /// with GOAWAY; without --hold a connection just closes, as before there were holds.
  net::awaitable<void> finish() override {
    if (!session_ || !setup_.hold) co_return;
    model::Response ignored;
    start_goodbye();
    co_await read_until_closed(ignored);
  }

 private:
  /// The hold's end (the watchdog at `until`, or the stopping run): GOAWAY goes out beside the
  /// pending read, which then waits for the server to close.
  bool say_goodbye() override {
    if (!holding_) return false;
    start_goodbye();
    return true;
  }

  bool ping_if_due() override {
    if (!holding_ || Clock::now() >= hold_until_) return false;
    if (session_->ping_unanswered() || !session_->ping()) {
      holding_ = false;  // lost: no goodbye, the read is cut short as a timeout
      return false;
    }
    pinged_at_ = Clock::now();
    arm_deadline(next_deadline());
    flush();
    return true;
  }

  void start_goodbye() {
    holding_ = false;
    said_goodbye_ = true;
    arm_goodbye_deadline();
    session_->goodbye();
    flush();
  }

  /// While held, the deadline is the hold's end or, with --ping, the next PING (the interval
  /// after the last bytes read) or the one sent's limit for its ACK, whichever comes first.
  [[nodiscard]] Clock::time_point next_deadline() const {
    if (setup_.ping_interval.count() == 0) return hold_until_;
    const auto since = session_->ping_unanswered() ? pinged_at_ : heard_at_;
    return std::min(hold_until_,
                    since + std::chrono::duration_cast<Clock::duration>(setup_.ping_interval));
  }

  /// Reads until the connection ends (see receive()), then closes it.
  net::awaitable<void> read_until_closed(model::Response& response) {
    for (bool open = true; open;) {
      if (read_buffer_.empty()) read_buffer_.resize(held_read_size);
      const auto [error, n] =
          co_await stream_->async_read_some(net::buffer(read_buffer_), as_tuple);
      response.bytes_received += n;
      open = held_read(response, error, n);
    }
    holding_ = false;
    if (writing_) close_socket();  // the connection is over: a write under way would never end
    co_await join_writer();
    stop_clock();
    close();
  }

  /// Takes one read of a held connection: false once the connection has ended (`response`
  /// then says how). After our GOAWAY what comes is dropped until the server closes.
  bool held_read(model::Response& response, const boost::system::error_code& error, std::size_t n) {
    if (said_goodbye_) return !error;
    if (error == net::error::eof || error == net::ssl::error::stream_truncated) {
      end_by_server(response, error);
      return false;
    }
    if (error) {  // a timeout if the watchdog cut it short: ping_if_due() stopped the hold
      record_failure(
          response, Phase::read, error,
          holding_ ? "" : "a held connection's PING had no ACK within --ping's interval");
      return false;
    }
    if (!session_->input(read_buffer_.data(), n)) {
      record_failure(response, Phase::read, session_->error());
      return false;
    }
    if (session_->server_goaway()) {
      end_by_server(response, {});
      return false;
    }
    heard_at_ = Clock::now();
    arm_deadline(next_deadline());
    flush();  // nghttp2's answers: SETTINGS and PING ACKs, WINDOW_UPDATEs
    return true;
  }

  /// The server ended the held connection (GOAWAY, or closing it: `error`): `closed`, as a
  /// WebSocket server's close frame is.
  void end_by_server(model::Response& response, const boost::system::error_code& error) {
    response.error = model::ErrorKind::closed;
    log_first_failure(setup_, response.error, error,
                      error ? "the server closed a held HTTP/2 connection"
                            : "the server sent GOAWAY on a held HTTP/2 connection");
  }

  /// Starts writing what the session has to send, unless a write is under way (it goes on
  /// until the session has nothing more): while held, frames go out beside the pending read.
  void flush() {
    if (writing_) return;
    writing_ = true;
    net::co_spawn(executor_, write_pending(), net::detached);
  }

  net::awaitable<void> write_pending() {
    boost::system::error_code error;
    while (!error) {
      const auto output = session_->output();
      if (output.empty()) break;
      const auto [write_error, written] =
          co_await net::async_write(*stream_, net::buffer(output), as_tuple);
      error = write_error;
    }
    // After our GOAWAY, the end of our side tells the server to close too; a failed write
    // ends the connection, and the pending read with it.
    boost::system::error_code ignored;
    if (error) {
      close_socket();
    } else if (said_goodbye_) {
      tcp_socket(*stream_).shutdown(net::socket_base::shutdown_send, ignored);
    }
    writing_ = false;
    if (joiner_ != nullptr) joiner_->cancel();
  }

  /// Waits for write_pending() to end, if it runs: the connection must outlive it.
  net::awaitable<void> join_writer() {
    if (!writing_) co_return;
    net::steady_timer joiner(executor_, Clock::time_point::max());
    joiner_ = &joiner;
    co_await joiner.async_wait(as_tuple);
    joiner_ = nullptr;
  }

  void close_socket() override {
    if (!stream_) return;
    boost::system::error_code ignored;
    tcp_socket(*stream_).close(ignored);
  }

  /// How open() ended: an HTTP/2 session, a failure (in response.error), or a TLS server that
  /// selected HTTP/1.1.
  enum class Opened { http2, failed, http1 };

  /// Connects (and shakes hands over TLS, offering "h2" by ALPN), within `connect_timeout` if
  /// set.
  net::awaitable<Opened> open(model::Response& response, std::chrono::nanoseconds connect_timeout) {
    const auto failure = co_await connect(stream_, response, connect_timeout);
    if (failure) {
      fail(response, failure->phase, failure->error);
      co_return Opened::failed;
    }
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      if (!alpn_h2()) {
        fall_back();
        co_return Opened::http1;
      }
    }
    session_.emplace();
    co_return Opened::http2;
  }

  /// The server selected HTTP/1.1 (or nothing) by ALPN: this user goes on over HTTP/1.1, as
  /// curl and Go's transport (go-stress-testing's -http2) do. This first connection is closed
  /// unused rather than handed over, so that every HTTP/1.1 exchange is measured by the one
  /// client that made it; a server that answers so does so for every user, once each.
  void fall_back() {
    close();
    http1_ = make_http1_client(setup_, thread_);
    if (setup_.fallback_logged.test_and_set(std::memory_order_relaxed)) return;
    spdlog::warn("{} did not select HTTP/2 by ALPN: its requests go over HTTP/1.1 (as curl does){}",
                 setup_.host, setup_.hold ? ", and its connections are not held" : "");
  }

  /// The server selected "h2" by ALPN.
  bool alpn_h2() {
    const unsigned char* protocol = nullptr;
    unsigned int length = 0;
    SSL_get0_alpn_selected(stream_->native_handle(), &protocol, &length);
    return std::string_view(reinterpret_cast<const char*>(protocol), length) == "h2";
  }

  /// Opens the request's stream; the clock for `waiting` starts at its first write.
  Step submit(const PreparedRequest& request, model::Response& response) {
    written_at_ = {};
    request_written_ = false;
    debugging_ = claim_debug_slot();
    if (session_->submit(std::get<Http2Wire>(request.wire), response, setup_.keep_body))
      return Step::more;
    fail(response, Phase::write, session_->error());
    return Step::failed;
  }

  /// A write failed: a stale reused connection is retried (idempotent requests only).
  Step write_failed(const PreparedRequest& request, model::Response& response, bool reused,
                    const boost::system::error_code& error) {
    // The server broke the protocol and the GOAWAY saying so met a closed connection: the
    // protocol error is the cause.
    if (session_->error()) {
      fail(response, Phase::read, session_->error());
      return Step::failed;
    }
    if (reused && request.idempotent && stale_connection(error)) return Step::stale;
    // Control frames (a SETTINGS ack) may go out after the request: their failure is the
    // connection failing while we wait for the response, as HTTP/1.1 would see it.
    fail(response, request_written_ ? Phase::read : Phase::write, error);
    return Step::failed;
  }

  /// Accounts `n` bytes just read (or the error that ended the read) and feeds the session.
  Step after_read(const PreparedRequest& request, model::Response& response, bool reused,
                  const boost::system::error_code& error, std::size_t n) {
    note_read(n);
    if (n > 0 && response.bytes_received == 0) response.waiting = Clock::now() - written_at_;
    response.bytes_received += n;
    if (error) {
      if (reused && request.idempotent && response.status == 0 && stale_connection(error)) {
        return Step::stale;
      }
      fail(response, Phase::read, error);
      return Step::failed;
    }
    if (session_->input(read_buffer_.data(), n)) return Step::more;
    fail(response, Phase::read, session_->error());
    return Step::failed;
  }

  /// The stream ended: complete, reset (a protocol error) or refused (retried once on a new
  /// connection: the server did not process it).
  Step finish(const PreparedRequest& request, model::Response& response, bool reused) {
    if (debugging_) log_exchange(request, response);
    if (session_->refused() && reused) return Step::stale;
    if (session_->error()) {
      fail(response, Phase::read, session_->error());
      return Step::failed;
    }
    if (!setup_.keep_alive) close();  // as HTTP/1.1 without -k: a connection per request
    return Step::done;
  }

  /// -d: the header list sent and what came back (HTTP/2 frames are binary: no raw dump).
  void log_exchange(const PreparedRequest& request, const model::Response& response) const {
    std::string fields;
    for (const auto& [name, value] : std::get<Http2Wire>(request.wire).headers) {
      fields += name + ": " + value + "\n";
    }
    spdlog::debug("HTTP/2 request ({} body bytes):\n{}response: status {}, {} body bytes{}{}",
                  std::get<Http2Wire>(request.wire).body.size(), fields, response.status,
                  response.body_bytes, session_->error() ? ", " : "",
                  session_->error() ? session_->error().message() : "");
  }

  bool fail(model::Response& response, Phase phase, const boost::system::error_code& error) {
    // Over plain TCP nothing says whether the server speaks HTTP/2 until its SETTINGS come.
    const bool silent =
        !std::is_same_v<Stream, TlsStream> && session_.has_value() && !session_->server_settings();
    record_failure(response, phase, error,
                   silent ? "no HTTP/2 from the server: over http:// HTTP/2 is sent "
                            "without asking first, which an HTTP/1.1-only server refuses"
                          : "");
    close();
    return false;
  }

  void close() override {
    said_goodbye_ = false;
    session_.reset();
    stream_.reset();
  }

  std::optional<Stream> stream_;
  std::optional<H2Session> session_;  ///< one per connection, reset with it
  std::unique_ptr<Client> http1_;     ///< set once the server selected HTTP/1.1 by ALPN
  std::vector<char> read_buffer_;
  Clock::time_point written_at_;  ///< the request's first bytes were written: `waiting` starts
  bool request_written_ = false;  ///< its last frame too
  bool debugging_ = false;        ///< this exchange is one of the first few logged (-d)
  // --hold: the held connection's state.
  Clock::time_point hold_until_;         ///< when the hold ends
  Clock::time_point heard_at_;           ///< the last bytes read: silence since then (--ping)
  Clock::time_point pinged_at_;          ///< the unanswered PING went out
  bool holding_ = false;                 ///< the hold reads: its deadline is a PING's or a goodbye
  bool said_goodbye_ = false;            ///< our GOAWAY ends it: its read's error is no failure
  bool writing_ = false;                 ///< write_pending() runs
  net::steady_timer* joiner_ = nullptr;  ///< join_writer() waits on it
};

}  // namespace

std::unique_ptr<Client> make_http2_client(const ClientSetup& setup, ThreadContext& thread) {
  return make_for_transport<Http2Client>(setup, thread);
}

}  // namespace stampede::client
