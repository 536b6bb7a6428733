// The HTTP/2 client's class, shared by its two files: the exchanges (http2_client.cpp) and the
// hold after them (http2_hold.cpp). Internal to server/client: make_http2_client() is the way in.
#pragma once

#include <array>

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/client/client_base.hpp"
#include "server/client/h2_idle.hpp"
#include "server/client/h2_streams.hpp"
#include "server/client/http1_client.hpp"

namespace stampede::client {

/// HTTP/2 over plain TCP (h2c, by prior knowledge or upgrade) or TLS (ALPN h2): one session per
/// user, held open after the requests with --hold (pinged with --ping, closed with GOAWAY).
template <class Stream>
class Http2Client final : public ClientBase, private LongLived {
 public:
  /// With `setup.h2c_upgrade`, each new connection starts as HTTP/1.1 asking to upgrade.
  Http2Client(const ClientSetup& setup, ThreadContext& thread)
      : ClientBase(setup, thread, model::Protocol::http2) {
    if (setup.h2c_upgrade) http1_ = std::make_unique<Http1Client<Stream>>(setup, thread);
  }

  /// One frame for the whole exchange, as in the HTTP/1.1 client: write what the session has
  /// to send, read, feed the session, until the stream closes.
  net::awaitable<void> exchange(const PreparedRequest& request, model::Response& response) override;

  /// --hold: this user's connection is long-lived, unless the server chose HTTP/1.1 by ALPN or
  /// declined the h2c upgrade.
  LongLived* long_lived() override {
    return setup_.hold && (!http1_ || is_open()) ? this : nullptr;
  }

  void share_cookies(SessionCookies* cookies) override {
    ClientBase::share_cookies(cookies);
    if (http1_) http1_->share_cookies(cookies);
  }

  /// --hold: the session is dropped for an H2Idle and the connection waits in one read of its
  /// own small buffer, answering the server's PINGs and SETTINGS and, with --ping,
  /// PINGing it when it has been silent that long. It ends by our GOAWAY at `until` or
  /// end_hold() (no error), by the server's GOAWAY or close (`closed`), or lost (a PING
  /// unanswered for the interval: `timeout`), and tells `owner`.
  bool hold(Clock::time_point until, std::shared_ptr<HoldOwner> owner) override;

  /// A held connection still open (the run stopped before the hold) says goodbye with GOAWAY;
  /// without --hold a connection just closes, as before there were holds.
  net::awaitable<void> finish() override;

 private:
  [[nodiscard]] bool is_open() const override { return session_ != nullptr || idle_; }

  // The hold (http2_hold.cpp).
  bool say_goodbye() override;
  bool ping_if_due() override;
  void hand_over();
  void start_goodbye();
  [[nodiscard]] Clock::time_point next_deadline() const;
  void read_held(std::shared_ptr<HoldOwner> owner);
  void on_held(const boost::system::error_code& error, std::size_t n,
               const std::shared_ptr<HoldOwner>& owner);
  std::optional<model::ErrorKind> held_read(const boost::system::error_code& error,
                                            const char* data, std::size_t n);
  model::ErrorKind end_by_server(const boost::system::error_code& error);
  void end_held(HoldOwner& owner);
  void flush();
  net::awaitable<void> write_pending(std::shared_ptr<HoldOwner> owner);
  net::awaitable<void> join_writer();

  // The exchanges (http2_client.cpp).
  /// How connect_to() ended: an HTTP/2 session, a failure (in response.error), or a TLS server that
  /// selected HTTP/1.1.
  enum class Opened { http2, failed, http1 };
  net::awaitable<Opened> connect_to(model::Response& response,
                                    std::chrono::nanoseconds connect_timeout);
  net::awaitable<std::optional<Step>> over_http1(const PreparedRequest& request,
                                                 model::Response& response);
  Step upgraded(const PreparedRequest& request, Switched<Stream> switched,
                model::Response& response);
  void fall_back();
  void refuse_http1(model::Response& response);
  void aim_call(const PreparedRequest& request, model::Response& response);
  Step submit(const PreparedRequest& request, model::Response& response);
  Step write_failed(const PreparedRequest& request, model::Response& response, bool reused,
                    const boost::system::error_code& error);
  Step after_read(const PreparedRequest& request, model::Response& response, bool reused,
                  const boost::system::error_code& error, std::size_t n);
  Step finish(const PreparedRequest& request, model::Response& response, bool reused);
  bool fail(model::Response& response, Phase phase, const boost::system::error_code& error);
  /// How the stream ended badly (reset, refused), or else how the connection failed.
  [[nodiscard]] const boost::system::error_code& error() const {
    return call_.error ? call_.error : session_->error();
  }
  void close_socket() override;
  void close() override;

  std::optional<Stream> stream_;
  /// One per connection, until the hold hands it over; apart, so that a held connection does
  /// not keep its room in the client.
  std::unique_ptr<H2Streams> session_;
  H2Call call_;                 ///< the exchange's stream on it
  std::optional<H2Idle> idle_;  ///< the held connection, in the session's place
  /// HTTP/1.1: set once the server selected it by ALPN; from the start with h2c's upgrade,
  /// which it asks for on each new connection (the HTTP/2 session then takes it over).
  std::unique_ptr<Http1Client<Stream>> http1_;
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
  bool hold_over_ = false;               ///< the held read ended; end_held() waits for the writer
  net::steady_timer* joiner_ = nullptr;  ///< join_writer() waits on it
  std::weak_ptr<HoldOwner> owner_;       ///< the hold's, for the writer to keep alive
  /// The held read's bytes. A connection's own: with one buffer per thread, a read that
  /// completed (a GOAWAY) was overwritten by another connection's (a PING) before its handler
  /// parsed it, when epoll reported both at once (http2_hold_test's ping_idle, 1 run in 4
  /// under ASan). Control frames are small: a few reads at most for a larger burst.
  std::array<char, 64> held_input_{};
  model::ErrorKind held_outcome_ = model::ErrorKind::none;  ///< how the hold ended
};

}  // namespace stampede::client
