// HTTP/2 client's exchanges over plain TCP (h2c, prior knowledge) or TLS (ALPN h2): one session
// per user, opened by the first request; the hold after the requests is in http2_hold.cpp.
#include "server/client/http2_client.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <tuple>
#include <type_traits>

#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/h2_error.hpp"

namespace stampede::client {

template <class Stream>
net::awaitable<void> Http2Client<Stream>::exchange(const PreparedRequest& request,
                                                   model::Response& response) {
  Step step = Step::failed;
  for (const auto* current = begin_exchange(request, response); current != nullptr;
       current = next_request(request, step, response)) {
    if (session_ && !session_->reusable()) close();  // GOAWAY: the next stream needs a new one
    bool reused = session_ != nullptr;
    if (!reused && !http1_) {
      const auto opened = co_await connect_to(response, request.connect_timeout);
      if (opened == Opened::failed) break;
      if (opened == Opened::http1) {
        if (!current->http1_fallback) {  // gRPC: HTTP/2 or nothing
          refuse_http1(response);
          break;
        }
        fall_back();
      }
    }
    if (session_) {
      step = submit(*current, response);
    } else {  // HTTP/1.1: chosen by ALPN, or asking for h2c's upgrade
      const auto switched = co_await over_http1(*current, response);
      if (!switched) co_return;  // answered over HTTP/1.1, hops and all
      step = *switched;
      reused = false;
    }
    while (step == Step::more) {
      const auto output = session_->output();
      if (!output.empty()) {
        boost::system::error_code error;
        std::size_t written = 0;
        if constexpr (over_tls<Stream>) {  // straight through OpenSSL, no completion posted
          std::tie(error, written) = co_await stream_->write_all(net::buffer(output));
        } else {
          std::tie(error, written) =
              co_await net::async_write(*stream_, net::buffer(output), as_tuple);
        }
        response.bytes_sent += written;
        if (error) {
          step = write_failed(*current, response, reused, error);
          break;
        }
        if (written_at_ == Clock::time_point{}) written_at_ = Clock::now();
        request_written_ = call_.request_sent;
      }
      if (call_.done || session_->error()) {
        step = finish(*current, response, reused);
        break;
      }
      read_buffer_.resize(read_size());
      boost::system::error_code read_error;
      std::size_t n = 0;
      if constexpr (over_tls<Stream>) {
        std::tie(read_error, n) = co_await stream_->read_arrived(net::buffer(read_buffer_));
      } else {
        std::tie(read_error, n) =
            co_await stream_->async_read_some(net::buffer(read_buffer_), as_tuple);
      }
      step = after_read(*current, response, reused, read_error, n);
    }
  }
  end_exchange(request, response);
  response.keep_alive = session_ && session_->reusable();
}

/// `request` as HTTP/1.1, a whole exchange of the HTTP/1.1 client's (its clock, its hops).
/// Nullopt when that answered it; after a 101 to an h2c upgrade this client takes the
/// connection, and the response comes on the session's stream 1: Step::more (or failed).
template <class Stream>
net::awaitable<std::optional<ClientBase::Step>> Http2Client<Stream>::over_http1(
    const PreparedRequest& request, model::Response& response) {
  const auto until = deadline();
  stop_clock();
  co_await http1_->exchange(*request.http1_fallback, response);
  auto switched = http1_->take_switched();
  if (!switched) co_return std::nullopt;
  arm_deadline(until);
  co_return upgraded(request, std::move(*switched), response);
}

/// The server switched to HTTP/2: its session starts where the 101 ended, with stream 1 open
/// for `request` (sent already), and is fed what came after the 101.
template <class Stream>
ClientBase::Step Http2Client<Stream>::upgraded(const PreparedRequest& request,
                                               Switched<Stream> switched,
                                               model::Response& response) {
  stream_.emplace(std::move(switched.stream));
  session_ = std::make_unique<H2Streams>(H2Streams::Use::own, H2Streams::Start::upgraded);
  response.negotiated = model::Negotiated::h2c;
  written_at_ = Clock::now();  // `waiting` is the 101's, already measured
  request_written_ = true;
  debugging_ = claim_debug_slot();
  aim_call(request, response);
  const bool started = session_->upgrade(call_, request.head) &&
                       session_->input(switched.rest.data(), switched.rest.size());
  if (started) return Step::more;
  fail(response, Phase::read, error());
  return Step::failed;
}

/// The exchange's stream carries `request` and fills `response`.
template <class Stream>
void Http2Client<Stream>::aim_call(const PreparedRequest& request, model::Response& response) {
  call_.request = &std::get<Http2Wire>(request.wire);
  call_.response = &response;
  call_.keep_body = setup_.keep_body;
}

template <class Stream>
void Http2Client<Stream>::close_socket() {
  close_under(stream_);
}

/// Connects (and shakes hands over TLS, offering "h2" by ALPN), within `connect_timeout` if set.
template <class Stream>
net::awaitable<typename Http2Client<Stream>::Opened> Http2Client<Stream>::connect_to(
    model::Response& response, std::chrono::nanoseconds connect_timeout) {
  const auto failure = co_await connect(stream_, response, connect_timeout);
  if (failure) {
    fail(response, failure->phase, failure->error);
    co_return Opened::failed;
  }
  if constexpr (over_tls<Stream>) {
    if (!alpn_selected_h2(*stream_)) co_return Opened::http1;
  }
  session_ = std::make_unique<H2Streams>(H2Streams::Use::own);
  co_return Opened::http2;
}

/// The server selected HTTP/1.1 (or nothing) by ALPN: this user goes on over HTTP/1.1, as
/// curl and Go's transport (go-stress-testing's -http2) do. This first connection is closed
/// unused rather than handed over, so that every HTTP/1.1 exchange is measured by the one
/// client that made it; a server that answers so does so for every user, once each.
template <class Stream>
void Http2Client<Stream>::fall_back() {
  close();
  http1_ = std::make_unique<Http1Client<Stream>>(setup_, thread_);
  http1_->share_cookies(shared_cookies());
  warn_http1_fallback(setup_);
}

/// Opens the request's stream; the clock for `waiting` starts at its first write.
template <class Stream>
ClientBase::Step Http2Client<Stream>::submit(const PreparedRequest& request,
                                             model::Response& response) {
  written_at_ = {};
  request_written_ = false;
  debugging_ = claim_debug_slot();
  aim_call(request, response);
  if (session_->submit(call_)) return Step::more;
  fail(response, Phase::write, error());
  return Step::failed;
}

/// A write failed: a stale reused connection is retried (idempotent requests only).
template <class Stream>
ClientBase::Step Http2Client<Stream>::write_failed(const PreparedRequest& request,
                                                   model::Response& response, bool reused,
                                                   const boost::system::error_code& error) {
  // The server broke the protocol and the GOAWAY saying so met a closed connection: the
  // protocol error is the cause.
  if (this->error()) {
    fail(response, Phase::read, this->error());
    return Step::failed;
  }
  if (reused && request.idempotent && stale_connection(error)) return Step::stale;
  // Control frames (a SETTINGS ack) may go out after the request: their failure is the
  // connection failing while we wait for the response, as HTTP/1.1 would see it.
  fail(response, request_written_ ? Phase::read : Phase::write, error);
  return Step::failed;
}

/// Accounts `n` bytes just read (or the error that ended the read) and feeds the session.
template <class Stream>
ClientBase::Step Http2Client<Stream>::after_read(const PreparedRequest& request,
                                                 model::Response& response, bool reused,
                                                 const boost::system::error_code& error,
                                                 std::size_t n) {
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
template <class Stream>
ClientBase::Step Http2Client<Stream>::finish(const PreparedRequest& request,
                                             model::Response& response, bool reused) {
  if (debugging_) h2::log_exchange(std::get<Http2Wire>(request.wire), response, error());
  if (call_.error == h2_refused() && reused) return Step::stale;
  if (error()) {
    fail(response, Phase::read, error());
    return Step::failed;
  }
  if (!setup_.keep_alive) close();  // as HTTP/1.1 without -k: a connection per request
  return Step::done;
}

/// A gRPC call to a server that selected HTTP/1.1 by ALPN fails: gRPC is HTTP/2 only.
template <class Stream>
void Http2Client<Stream>::refuse_http1(model::Response& response) {
  record_failure(response, Phase::handshake, net::error::no_protocol_option, grpc_needs_h2);
  close();
}

template <class Stream>
bool Http2Client<Stream>::fail(model::Response& response, Phase phase,
                               const boost::system::error_code& error) {
  // Over plain TCP nothing says whether the server speaks HTTP/2 until its SETTINGS come: one
  // that closes or answers in HTTP/1.1 does not; one that says nothing may be only slow.
  const bool silent = !over_tls<Stream> && session_ && !session_->server_settings();
  const char* hint = !silent       ? ""
                     : timed_out() ? "no HTTP/2 SETTINGS from the server before the timeout: it "
                                     "took the connection and said nothing"
                                   : "no HTTP/2 from the server: over http:// HTTP/2 is sent "
                                     "without asking first, which an HTTP/1.1-only server refuses";
  record_failure(response, phase, error, hint);
  close();
  return false;
}

template <class Stream>
void Http2Client<Stream>::close() {
  said_goodbye_ = false;
  session_.reset();
  idle_.reset();
  stream_.reset();
}

void warn_http1_fallback(const ClientSetup& setup) {
  if (setup.fallback_logged.test_and_set(std::memory_order_relaxed)) return;
  spdlog::warn("{} did not select HTTP/2 by ALPN: its requests go over HTTP/1.1 (as curl does){}",
               setup.host, setup.hold ? ", and its connections are not held" : "");
}

// The hold's members are instantiated in http2_hold.cpp.
template class Http2Client<TcpStream>;
template class Http2Client<TlsSocket>;

std::unique_ptr<Client> make_http2_client(const ClientSetup& setup, ThreadContext& thread) {
  return make_for_transport<Http2Client>(setup, thread);
}

}  // namespace stampede::client
