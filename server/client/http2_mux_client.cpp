// HTTP/2 with -m: a user's client on a connection its thread's users share; each exchange is
// one stream, which the connection's reader completes while the user waits.
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <memory>
#include <utility>

#include "server/client/client_base.hpp"
#include "server/client/client_factories.hpp"
#include "server/client/h2_connection.hpp"
#include "server/client/tls_socket.hpp"

namespace stampede::client {

namespace {

/// One user's requests as streams on the connection it shares (`user` modulo the thread's
/// share of -m), one at a time, as h2load's `-m` streams are. A stream the server refuses or
/// loses with its connection (GOAWAY, a reset) is that request's failure, never resent: the
/// next request goes on a new connection. -t resets the stream alone (RST_STREAM CANCEL).
template <class Stream>
class Http2MuxClient final : public ClientBase {
 public:
  Http2MuxClient(const ClientSetup& setup, ThreadContext& thread, UserId user)
      : ClientBase(setup, thread, model::Protocol::http2),
        shared_(thread.pool.slot<H2Shared<Stream>>(
            setup, static_cast<std::uint32_t>(user % thread.shared_connections),
            [&] { return std::make_shared<H2Shared<Stream>>(setup, thread); })) {
    shared_.join();
    call_.keep_body = setup.keep_body;
  }

  void share_cookies(SessionCookies* cookies) override {
    ClientBase::share_cookies(cookies);
    if (http1_) http1_->share_cookies(cookies);
  }

  net::awaitable<void> exchange(const PreparedRequest& request,
                                model::Response& response) override {
    if (!http1_ && shared_.http1() && request.http1_fallback) make_http1();
    if (http1_) {
      co_await http1_->exchange(*request.http1_fallback, response);
      co_return;
    }
    Step step = Step::failed;
    for (const auto* current = begin_exchange(request, response); current != nullptr;
         current = next_request(request, step, response)) {
      auto connection = shared_.connection(current->connect_timeout);
      co_await send(*current, response, *connection);
      if (response.cut_short) {  // the run stopped: abandoned, not counted
        stop_clock();
        co_return;
      }
      if (connection->chose_http1() && request.http1_fallback) {  // ALPN: HTTP/1.1 only
        fall_back();
        stop_clock();
        co_await http1_->exchange(*request.http1_fallback, response);
        co_return;
      }
      step = outcome(*current, response);
    }
    end_exchange(request, response);
    response.keep_alive = response.error == model::ErrorKind::none;
  }

  /// The user is done: the last of a connection's users ends it with GOAWAY.
  net::awaitable<void> finish() override {
    if (!std::exchange(left_, true)) co_await shared_.leave();
    if (http1_) co_await http1_->finish();
  }

 private:
  /// Submits the request's stream and waits until it is over: the connection resumes this
  /// coroutine through call_.resume (see H2Connection for why no timer).
  net::awaitable<void> send(const PreparedRequest& request, model::Response& response,
                            H2Connection<Stream>& connection) {
    call_.request = &std::get<Http2Wire>(request.wire);
    call_.response = &response;
    debugging_ = claim_debug_slot();
    if (!connection.submit(call_) || call_.done) co_return;
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

  Step outcome(const PreparedRequest& request, model::Response& response) {
    if (debugging_) h2::log_exchange(std::get<Http2Wire>(request.wire), response, call_.error);
    if (!call_.error) return Step::done;
    const bool http1_only = call_.error == net::error::no_protocol_option;  // gRPC's, by ALPN
    record_failure(response, call_.phase, call_.error, http1_only ? grpc_needs_h2 : "");
    return Step::failed;
  }

  /// -t: this stream is reset; the connection and its other streams go on.
  void close_socket() override { give_up(net::error::timed_out); }

  /// The run stops while the reply is awaited: the stream is reset (RST_STREAM CANCEL) and the
  /// exchange abandoned, so that the last user's GOAWAY ends the connection cleanly at once.
  void cut_short() override {
    if (give_up(net::error::operation_aborted)) call_.response->cut_short = true;
  }

  /// Withdraws the call waiting on its stream and resumes the user with `error`; false when
  /// no call waits (or its end is already on its way).
  bool give_up(const boost::system::error_code& error) {
    if (connection_ == nullptr || call_.done) return false;
    connection_->withdraw(call_);
    call_.done = true;
    call_.error = error;
    call_.phase = Phase::read;
    if (call_.resume) net::post(thread_.executor, std::exchange(call_.resume, nullptr));
    return true;
  }

  /// A failed exchange leaves the shared connection to the others: nothing to close here.
  void close() override {}

  void fall_back() {
    shared_.fall_back();
    make_http1();
    warn_http1_fallback(setup_);
  }

  void make_http1() {
    http1_ = make_http1_client(setup_, thread_);
    http1_->share_cookies(shared_cookies());
  }

  H2Shared<Stream>& shared_;
  H2Connection<Stream>* connection_ = nullptr;  ///< where the call waits, while it does
  H2Waiter call_;
  std::unique_ptr<Client> http1_;  ///< set once the server selected HTTP/1.1 by ALPN
  bool debugging_ = false;
  bool left_ = false;
};

}  // namespace

std::unique_ptr<Client> make_http2_mux_client(const ClientSetup& setup, ThreadContext& thread,
                                              UserId user) {
  return make_for_transport<Http2MuxClient>(setup, thread, user);
}

}  // namespace stampede::client
