// The HTTP/2 client's exchanges (a call on its connection, with the HTTP/1.1 fallback and the h2c
// upgrade) and its hold, whose frames the connection keeps.
#include "server/client/http2_client.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <utility>

#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/failure_log.hpp"
#include "server/client/h2_error.hpp"

namespace stampede::client {

template <class Stream>
Http2Client<Stream>::Http2Client(const ClientSetup& setup, ThreadContext& thread, UserId user)
    : ClientBase(setup, thread, model::Protocol::http2) {
  call_.keep_body = setup.keep_body;
  if (thread.shared_connections > 0) {
    shared_ = &thread.pool.slot<H2Shared<Stream>>(
        setup, static_cast<std::uint32_t>(user % thread.shared_connections),
        [&] { return std::make_shared<H2Shared<Stream>>(setup, thread); });
    shared_->join();
  } else if (setup.h2c_upgrade) {
    http1_ = std::make_unique<Http1Client<Stream>>(setup, thread);
  }
}

template <class Stream>
Http2Client<Stream>::~Http2Client() {
  if (own_) own_->close();
}

/// Each attempt is one call: on the shared connection, on this user's own (a new one after a
/// GOAWAY or a failure), or on stream 1 of one the server switched to h2c.
template <class Stream>
net::awaitable<void> Http2Client<Stream>::exchange(const PreparedRequest& request,
                                                   model::Response& response) {
  if (!over_http1_ && shared_ != nullptr && shared_->http1() && request.http1_fallback) {
    fall_back();  // another user's connection found that the server chose HTTP/1.1
  }
  if (over_http1_) {
    co_await http1_->exchange(*request.http1_fallback, response);
    co_return;
  }
  Step step = Step::failed;
  for (const auto* current = begin_exchange(request, response); current != nullptr;
       current = next_request(request, step, response)) {
    if (own_ && !own_->accepting()) close();  // GOAWAY, or closed: the next stream needs a new one
    std::shared_ptr<H2Connection<Stream>> connection;
    bool reused = false;
    if (!own_ && http1_ && shared_ == nullptr) {  // h2c: ask to upgrade each new connection
      const auto switched = co_await over_http1(*current, response);
      if (!switched) co_return;  // answered over HTTP/1.1, hops and all
      step = *switched;
      if (step == Step::more) connection = own_;
    } else {
      connection = connection_for(*current, reused);
      aim_call(*current, response);
      connection->submit(call_);  // if refused, the call is over: outcome() says why
    }
    if (connection && !call_.done) co_await wait(*connection);
    if (response.cut_short) {  // the run stopped: abandoned, not counted
      stop_clock();
      co_return;
    }
    if (connection && connection->chose_http1() && request.http1_fallback) {  // ALPN: HTTP/1.1
      fall_back();
      stop_clock();
      co_await http1_->exchange(*request.http1_fallback, response);
      co_return;
    }
    if (connection) step = outcome(*current, response, reused);
  }
  end_exchange(request, response);
  response.keep_alive =
      shared_ != nullptr ? response.error == model::ErrorKind::none : own_ && own_->accepting();
}

/// The connection the call goes on: the shared one, or its own (opened now unless `reused`).
template <class Stream>
std::shared_ptr<H2Connection<Stream>> Http2Client<Stream>::connection_for(
    const PreparedRequest& request, bool& reused) {
  if (shared_ != nullptr) return shared_->connection(request.connect_timeout);
  reused = own_ != nullptr;
  if (!reused) {
    own_ =
        std::make_shared<H2Connection<Stream>>(setup_, thread_, H2Streams::Use::own, tls_session());
    own_->start(request.connect_timeout);
  }
  return own_;
}

/// `request` as HTTP/1.1, a whole exchange of the HTTP/1.1 client's (its clock, its hops).
/// Nullopt when that answered it; after a 101 to an h2c upgrade this client's own connection
/// takes the socket, and the response comes on its stream 1: Step::more (or failed).
template <class Stream>
net::awaitable<std::optional<ClientBase::Step>> Http2Client<Stream>::over_http1(
    const PreparedRequest& request, model::Response& response) {
  const auto until = deadline();
  stop_clock();
  co_await http1_->exchange(*request.http1_fallback, response);
  auto switched = http1_->take_switched();
  if (!switched) co_return std::nullopt;
  arm_deadline(until);
  response.negotiated = model::Negotiated::h2c;
  own_ =
      std::make_shared<H2Connection<Stream>>(setup_, thread_, H2Streams::Use::own, tls_session());
  aim_call(request, response);
  if (own_->adopt(std::move(switched->stream), switched->rest, call_, request.head)) {
    co_return Step::more;
  }
  record_failure(response, Phase::read, call_.error);
  co_return Step::failed;
}

/// The call carries `request` and fills `response`.
template <class Stream>
void Http2Client<Stream>::aim_call(const PreparedRequest& request, model::Response& response) {
  call_.request = &std::get<Http2Wire>(request.wire);
  call_.response = &response;
  debugging_ = claim_debug_slot();
}

/// Waits until the call is over: the connection resumes this coroutine through call_.resume
/// (see H2Connection for why no timer).
template <class Stream>
net::awaitable<void> Http2Client<Stream>::wait(H2Connection<Stream>& connection) {
  connection_ = &connection;
  co_await net::async_initiate<decltype(net::use_awaitable), void()>(
      [this](auto resume) {
        // Not by assignment: Boost 1.81's move assignment of any_completion_handler copies
        // itself into a new wrapper, without end.
        net::any_completion_handler<void()>(std::move(resume)).swap(call_.resume);
      },
      net::use_awaitable);
  connection_ = nullptr;
}

/// How the call ended: complete; refused or lost with a reused connection of its own (retried
/// once on a new one: the server did not process it, or an idempotent request may be resent);
/// or failed. A stream the server refuses or loses on a shared connection is that request's
/// failure, never resent, as h2load's are.
template <class Stream>
ClientBase::Step Http2Client<Stream>::outcome(const PreparedRequest& request,
                                              model::Response& response, bool reused) {
  const auto& wire = std::get<Http2Wire>(request.wire);
  if (debugging_) h2::log_exchange(wire, response, call_.error);
  if (!call_.error) {
    if (!setup_.keep_alive) close();  // as HTTP/1.1 without -k: a connection per request
    return Step::done;
  }
  const bool stale = call_.error == h2_refused() ||
                     (request.idempotent && response.status == 0 && stale_connection(call_.error));
  if (reused && stale && !timed_out()) {
    close();
    return Step::stale;
  }
  record_failure(response, call_.phase, call_.error, hint());
  return Step::failed;
}

/// Over plain TCP nothing says whether the server speaks HTTP/2 until its SETTINGS come: one
/// that closes or answers in HTTP/1.1 does not; one that says nothing may be only slow.
template <class Stream>
std::string_view Http2Client<Stream>::hint() const {
  if (call_.error == net::error::no_protocol_option) return grpc_needs_h2;  // by ALPN
  if (over_tls<Stream> || !own_ || !own_->connected() || own_->server_settings()) return "";
  return timed_out() ? "no HTTP/2 SETTINGS from the server before the timeout: it took the "
                       "connection and said nothing"
                     : "no HTTP/2 from the server: over http:// HTTP/2 is sent without asking "
                       "first, which an HTTP/1.1-only server refuses";
}

/// The server selected HTTP/1.1 (or nothing) by ALPN: this user goes on over HTTP/1.1, as
/// curl and Go's transport (go-stress-testing's -http2) do. The connection that found it is
/// closed unused rather than handed over, so that every HTTP/1.1 exchange is measured by the
/// one client that made it; a server that answers so does so for every user, once each.
template <class Stream>
void Http2Client<Stream>::fall_back() {
  if (shared_ != nullptr) shared_->fall_back();
  close();
  over_http1_ = true;
  http1_ = std::make_unique<Http1Client<Stream>>(setup_, thread_);
  http1_->share_cookies(shared_cookies());
  warn_http1_fallback(setup_);
}

/// -t: the call gives up. Its own connection closes under it (the call fails, a timeout); on a
/// shared one its stream alone is reset, and the others go on.
template <class Stream>
void Http2Client<Stream>::close_socket() {
  if (shared_ != nullptr) {
    give_up(net::error::timed_out);
  } else if (auto connection = own_) {
    connection->close();
  }
}

/// The run stops while the reply is awaited: the stream is reset (RST_STREAM CANCEL) and the
/// exchange abandoned, so that the connection ends cleanly at once (the last user's GOAWAY on a
/// shared one). The user waits on the connection, not on an operation of the thread's
/// io_context, which would destroy it with the thread: a user left waiting would keep itself
/// alive through its own call.
template <class Stream>
void Http2Client<Stream>::cut_short() {
  if (give_up(net::error::operation_aborted)) call_.response->cut_short = true;
}

/// Withdraws the call waiting on its stream and resumes the user with `error`; false when no
/// call waits (or its end is already on its way).
template <class Stream>
bool Http2Client<Stream>::give_up(const boost::system::error_code& error) {
  if (connection_ == nullptr || call_.done) return false;
  connection_->withdraw(call_);
  call_.done = true;
  call_.error = error;
  call_.phase = Phase::read;
  if (call_.resume) net::post(thread_.executor, std::exchange(call_.resume, nullptr));
  return true;
}

/// Drops its own connection (a shared one stays with the others).
template <class Stream>
void Http2Client<Stream>::close() {
  if (auto connection = std::exchange(own_, nullptr)) connection->close();
}

template <class Stream>
net::awaitable<void> Http2Client<Stream>::finish() {
  if (shared_ != nullptr && !std::exchange(left_, true)) co_await shared_->leave();
  if (auto connection = std::exchange(own_, nullptr)) {
    if (setup_.hold && connection->open()) co_await connection->goodbye();
    connection->close();
  }
  if (http1_) co_await http1_->finish();
}

template <class Stream>
bool Http2Client<Stream>::hold(Clock::time_point until, std::shared_ptr<HoldOwner> owner) {
  if (!own_) return false;
  owner_ = std::move(owner);
  hold_until_ = until;
  holding_ = true;
  ping_lost_ = false;
  arm_deadline(next_deadline());
  const auto connection = own_;  // the hold may end at once, and drop own_
  connection->hold(*this);
  return true;
}

/// The hold's end (the watchdog at `until`, or the stopping run): GOAWAY goes out, and the
/// server's close is awaited for a goodbye's time at most.
template <class Stream>
bool Http2Client<Stream>::say_goodbye() {
  if (!holding_) return false;
  holding_ = false;
  arm_goodbye_deadline();
  own_->say_goodbye();
  return true;
}

/// At a deadline before the hold's end: a PING if the server has been silent for --ping's
/// interval (else the deadline moves to the interval after it was last heard); an unanswered
/// PING loses the hold.
template <class Stream>
bool Http2Client<Stream>::ping_if_due() {
  const auto now = Clock::now();
  if (!holding_ || now >= hold_until_) return false;
  if (own_->ping_unanswered()) {
    holding_ = false;  // lost: no goodbye, the connection is cut short as a timeout
    ping_lost_ = true;
    return false;
  }
  if (now >= own_->heard_at() + setup_.ping_interval) {
    own_->ping();
    pinged_at_ = now;
  }
  arm_deadline(next_deadline());
  return true;
}

/// While held, the deadline is the hold's end or, with --ping, the next PING (the interval
/// after the server was last heard) or the one sent's limit for its ACK, whichever comes first.
template <class Stream>
ClientBase::Clock::time_point Http2Client<Stream>::next_deadline() const {
  if (setup_.ping_interval.count() == 0) return hold_until_;
  const auto since = own_->ping_unanswered() ? pinged_at_ : own_->heard_at();
  return std::min(hold_until_,
                  since + std::chrono::duration_cast<Clock::duration>(setup_.ping_interval));
}

/// The connection says the hold is over and closed: the owner hears how.
template <class Stream>
void Http2Client<Stream>::held_ended(How how, const boost::system::error_code& error) {
  auto kind = model::ErrorKind::none;
  if (how == How::by_server) {
    kind = model::ErrorKind::closed;  // as a WebSocket server's close frame is
    log_first_failure(setup_, kind, error,
                      error ? "the server closed a held HTTP/2 connection"
                            : "the server sent GOAWAY on a held HTTP/2 connection");
  } else if (how == How::lost) {
    kind =
        failure(Phase::read, error,
                ping_lost_ ? "a held connection's PING had no ACK within --ping's interval" : "");
  }
  holding_ = false;
  stop_clock();
  own_.reset();
  if (auto owner = std::move(owner_)) owner->hold_ended(*this, kind);
}

void warn_http1_fallback(const ClientSetup& setup) {
  if (setup.fallback_logged.test_and_set(std::memory_order_relaxed)) return;
  spdlog::warn("{} did not select HTTP/2 by ALPN: its requests go over HTTP/1.1 (as curl does){}",
               setup.host, setup.hold ? ", and its connections are not held" : "");
}

template class Http2Client<TcpStream>;
template class Http2Client<TlsSocket>;

std::unique_ptr<Client> make_http2_client(const ClientSetup& setup, ThreadContext& thread,
                                          UserId user) {
  return make_for_transport<Http2Client>(setup, thread, user);
}

}  // namespace stampede::client
