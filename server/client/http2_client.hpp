// The HTTP/2 client: each exchange a stream on an H2Connection, the user's own or one its thread's
// users share (-m); its own held after the requests (--hold). make_http2_client() is the way in.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string_view>

#include "server/client/client_base.hpp"
#include "server/client/h2_connection.hpp"
#include "server/client/http1_client.hpp"

namespace stampede::client {

/// HTTP/2 over plain TCP (h2c, by prior knowledge or upgrade) or TLS (ALPN h2). Without -m the
/// user's requests go one after another on a connection of its own, as curl's and Go's do; with
/// -m on one its thread's users share, as h2load's streams do. Either way a request is one call
/// on the connection, which resumes the user when its stream is over.
template <class Stream>
class Http2Client final : public ClientBase, private LongLived, private H2HoldEnd {
 public:
  /// `user` picks, with -m, which of its thread's shared connections it uses. With
  /// `setup.h2c_upgrade`, each new connection of its own starts as HTTP/1.1 asking to upgrade.
  Http2Client(const ClientSetup& setup, ThreadContext& thread, UserId user);
  ~Http2Client() override;
  Http2Client(const Http2Client&) = delete;
  Http2Client& operator=(const Http2Client&) = delete;

  net::awaitable<void> exchange(const PreparedRequest& request, model::Response& response) override;

  /// --hold: this user's connection is long-lived, unless the server chose HTTP/1.1 by ALPN or
  /// declined the h2c upgrade. Shared connections (-m) are not held.
  LongLived* long_lived() override {
    return setup_.hold && shared_ == nullptr && (!http1_ || own_) ? this : nullptr;
  }

  void share_cookies(SessionCookies* cookies) override {
    ClientBase::share_cookies(cookies);
    if (http1_) http1_->share_cookies(cookies);
  }

  /// --hold: the connection drops its session for an H2Idle and waits for the server, answering
  /// its PINGs and SETTINGS and, with --ping, PINGing it when it has been silent that long. It
  /// ends by our GOAWAY at `until` or end_hold() (no error), by the server's GOAWAY or close
  /// (`closed`), or lost (a PING unanswered for the interval: `timeout`), and tells `owner`.
  bool hold(Clock::time_point until, std::shared_ptr<HoldOwner> owner) override;

  /// -m: the last of a connection's users ends it with GOAWAY. A connection of its own still
  /// open after a run that holds them says goodbye with GOAWAY; without --hold it just closes.
  net::awaitable<void> finish() override;

 private:
  /// Its own connection is kept (open, or ended by the server since the last exchange: the next
  /// exchange or the hold counts it as closed by the server).
  [[nodiscard]] bool is_open() const override { return own_ != nullptr; }

  std::shared_ptr<H2Connection<Stream>> connection_for(const PreparedRequest& request,
                                                       bool& reused);
  net::awaitable<std::optional<Step>> over_http1(const PreparedRequest& request,
                                                 model::Response& response);
  void aim_call(const PreparedRequest& request, model::Response& response);
  net::awaitable<void> wait(H2Connection<Stream>& connection);
  Step outcome(const PreparedRequest& request, model::Response& response, bool reused);
  [[nodiscard]] std::string_view hint() const;
  bool give_up(const boost::system::error_code& error);
  void fall_back();

  // ClientBase's.
  void close_socket() override;
  void cut_short() override;
  void close() override;
  // The hold.
  bool say_goodbye() override;
  bool ping_if_due() override;
  [[nodiscard]] Clock::time_point next_deadline() const;
  void held_ended(How how, const boost::system::error_code& error) override;

  H2Shared<Stream>* shared_ = nullptr;          ///< -m: the slot of the connection it shares
  std::shared_ptr<H2Connection<Stream>> own_;   ///< without -m: its own connection
  H2Connection<Stream>* connection_ = nullptr;  ///< where the call waits, while it does
  H2Waiter call_;
  /// HTTP/1.1: set once the server selected it by ALPN; from the start with h2c's upgrade,
  /// which it asks for on each new connection (the HTTP/2 connection then takes it over).
  std::unique_ptr<Http1Client<Stream>> http1_;
  bool over_http1_ = false;  ///< the server selected HTTP/1.1 by ALPN: every request goes so
  bool debugging_ = false;   ///< this exchange is one of the first few logged (-d)
  bool left_ = false;        ///< -m: finish() left the shared connection
  // --hold: the held connection's state.
  std::shared_ptr<HoldOwner> owner_;  ///< the hold's, kept alive (with this) until its end
  Clock::time_point hold_until_;      ///< when the hold ends
  Clock::time_point pinged_at_;       ///< the unanswered PING went out
  bool holding_ = false;              ///< held, before our goodbye: deadlines are PINGs'
  bool ping_lost_ = false;            ///< a PING went unanswered: the hold is lost
};

}  // namespace stampede::client
