// H2Connection: an HTTP/2 connection's connect, reader, writer and hold; H2Shared: a shared one's
// slot.
#include "server/client/h2_connection.hpp"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <type_traits>
#include <utility>

#include "server/client/connect.hpp"
#include "server/client/tls_socket.hpp"

namespace stampede::client {

namespace {

/// A read: a few users' responses at a time (h2load reads 8 KiB).
constexpr std::size_t input_size = 16 * 1024;

/// What a read that would block waits for: over TCP, readability; over TLS, what OpenSSL
/// asked for (a read may have to write first).
TcpStream::wait_type read_wait(const TcpStream&) { return TcpStream::wait_read; }
TcpStream::wait_type read_wait(const TlsSocket& stream) { return stream.read_wait(); }

/// What a write that would block waits for, likewise.
TcpStream::wait_type write_wait(const TcpStream&) { return TcpStream::wait_write; }
TcpStream::wait_type write_wait(const TlsSocket& stream) { return stream.write_wait(); }

/// The server closed the connection (over TLS, perhaps without close_notify).
bool closed_by_server(const boost::system::error_code& error) {
  return error == net::error::eof || error == net::ssl::error::stream_truncated;
}

/// Over TLS, close_notify before the close that ends our goodbye; over TCP, nothing.
void notify_close(TcpStream&) {}
void notify_close(TlsSocket& stream) { stream.notify_close(); }

}  // namespace

template <class Stream>
H2Connection<Stream>::H2Connection(const ClientSetup& setup, ThreadContext& thread,
                                   H2Streams::Use use, TlsSession& tls_session)
    : setup_(setup),
      thread_(thread),
      tls_session_(tls_session),
      streams_(std::make_unique<H2Streams>(use)),
      own_(use == H2Streams::Use::own) {}

template <class Stream>
void H2Connection<Stream>::start(std::chrono::nanoseconds connect_timeout) {
  net::co_spawn(thread_.executor, run(this->shared_from_this(), connect_timeout), net::detached);
}

template <class Stream>
net::awaitable<void> H2Connection<Stream>::run(std::shared_ptr<H2Connection> self,
                                               std::chrono::nanoseconds connect_timeout) {
  // co_spawn starts this at once, inside the call that asked for the connection, and a connect
  // on loopback is done before connect() returns: wait until that call has been submitted, so
  // that a handshake that fails fails it, not a write to a connection already closed.
  co_await net::post(self->thread_.executor, net::use_awaitable);
  const bool connected = co_await self->connect(connect_timeout);
  if (!connected) co_return;
  self->flush();  // the preface, and the calls submitted while it connected
  self->read();   // from here on the reader's handlers keep it alive
}

/// TCP, then TLS, under the watchdog: the connect time goes to the call that made it connect
/// (or, if that call gave up meanwhile, to another waiting), so that each connection opened
/// counts once.
template <class Stream>
net::awaitable<bool> H2Connection<Stream>::connect(std::chrono::nanoseconds connect_timeout) {
  const auto start = Clock::now();
  const auto limit = connect_timeout.count() > 0
                         ? std::min<std::chrono::nanoseconds>(connect_timeout, setup_.timeout)
                         : setup_.timeout;
  deadline_ = start + limit;
  thread_.watchdog->watch(this);  // only while it connects: a held connection costs no entry
  const auto failure = co_await open_stream(stream_, thread_.executor, setup_, tls_session_);
  thread_.watchdog->forget(this);
  deadline_ = Clock::time_point::max();
  if (ended_) co_return false;  // closed meanwhile
  if (failure) {
    fail(expired_ ? net::error::timed_out : failure->error, failure->phase);
    co_return false;
  }
  if (over_tls<Stream> && !alpn_selected_h2(*stream_)) {
    http1_ = true;  // its calls fail, and their users go over HTTP/1.1
    fail(net::error::no_protocol_option, Phase::handshake);
    co_return false;
  }
  opened();
  const auto took = Clock::now() - start;
  if (auto* first = opener_ != nullptr ? opener_ : streams_->some_call()) {
    claim_connect(*first, took);
  } else {
    unclaimed_connect_ = took;  // the call that asked for it gave up meanwhile
  }
  opener_ = nullptr;
  co_return true;
}

template <class Stream>
void H2Connection<Stream>::opened() {
  // Reads and writes go straight to the socket first: connect_socket() opened it non-blocking
  // (an upgraded connection's too, opened by the HTTP/1.1 client).
  connected_ = true;
}

/// `call` counts the connection as opened, and its connect time.
template <class Stream>
void H2Connection<Stream>::claim_connect(H2Call& call, Clock::duration took) {
  call.response->new_connection = true;
  call.response->negotiated = over_tls<Stream> ? model::Negotiated::h2 : model::Negotiated::h2c;
  call.response->connect = took;
}

template <class Stream>
bool H2Connection<Stream>::adopt(Stream stream, std::string_view rest, H2Waiter& call, bool head) {
  stream_.emplace(std::move(stream));
  streams_ = std::make_unique<H2Streams>(H2Streams::Use::own, H2Streams::Start::upgraded);
  opened();
  call.owner = this;
  call.on_done = call.on_arrival = &H2Connection::call_done;
  written_at_ = Clock::now();  // `waiting` is the 101's, already measured
  if (!streams_->upgrade(call, head)) {
    call.done = true;
    return false;
  }
  if (!rest.empty() && !take(rest, false)) return false;
  flush_for(*call.response);  // our preface and SETTINGS
  read();
  return !call.error;
}

/// Reads until the connection ends, with no coroutine of its own: a coroutine waiting to read
/// keeps its frames (about 1.7 KB a connection, where h2load's connection costs 1 KB beside
/// nghttp2's session), a wait's handler about a hundred bytes, from Asio's recycling allocator.
///
/// It reads into the thread's buffer, which it hands to nghttp2 (or, held, to H2Idle) before
/// anything else runs, so that a connection waiting for its server holds no buffer of its own
/// (16 KiB a connection was most of stampede's memory beside h2load's): it waits for the socket
/// to be readable, then reads. That costs no syscall more than a read that finds nothing: Asio
/// re-arms the socket in epoll for the wait instead. Over TLS a read takes every record that
/// arrived (TlsSocket::read_some), so that what the users it resumes submit goes out in one
/// write, not one a response. Bytes that came with an error (over TLS, the records before the
/// server's close) are the server's: the session gets them first, and what the users it resumes
/// submit fails with the connection, unwritten (as a write would).
template <class Stream>
void H2Connection<Stream>::read() {
  auto& buffer = thread_.read_buffer;
  if (buffer.empty()) buffer.resize(input_size);
  while (!ended_) {
    if (!readable_) {
      tcp_socket(*stream_).async_wait(
          read_wait(*stream_),
          [self = this->shared_from_this()](const boost::system::error_code& error) {
            if (error) return self->read_failed(error);
            self->readable_ = true;
            self->read();
          });
      return;
    }
    boost::system::error_code error;
    const auto n = stream_->read_some(net::buffer(buffer), error);
    readable_ = !error && n == buffer.size();  // a shorter read emptied the socket
    if (error == net::error::would_block) continue;
    if (n > 0) {
      count_read(n);
      const std::string_view bytes(buffer.data(), n);
      if (!(idle_ ? take_held(bytes) : take(bytes, !error))) return;
    }
    if (error) return read_failed(error);
  }
}

/// The read ended with `error`: the close that follows our GOAWAY, the server's close of a
/// held connection, or the connection failed.
template <class Stream>
void H2Connection<Stream>::read_failed(const boost::system::error_code& error) {
  if (ended_) return;
  if (closing_) {
    end_held(H2HoldEnd::How::goodbye, {});
  } else if (holder_ != nullptr && closed_by_server(error)) {
    end_held(H2HoldEnd::How::by_server, error);
  } else {
    fail(error, Phase::read);
  }
}

/// Feeds `bytes` to the session, resumes the users whose streams ended, then (if `write`)
/// writes what they and nghttp2 have. False once the connection is over.
template <class Stream>
bool H2Connection<Stream>::take(std::string_view bytes, bool write) {
  settling_ = true;  // the calls that end in input() are resumed by settle(), not posted
  if (!streams_->input(bytes.data(), bytes.size())) {
    settling_ = false;
    fail(streams_->error(), Phase::read);
    return false;
  }
  // A user's own: what nghttp2 answers (the ACK of the server's SETTINGS) goes out before the
  // user resumes, counted in the exchange that read what it answers, as wire bytes are.
  if (own_ && write && !ready_.empty()) flush_for(*ready_.back()->response);
  settle(write);
  if (!closing_ && streams_ && !streams_->accepting() && streams_->calls() == 0) {
    end();  // the server's GOAWAY, and every stream it left us is over
  }
  return !ended_;
}

/// A held connection's bytes: H2Idle answers PINGs and SETTINGS; the server's GOAWAY ends the
/// hold. After our GOAWAY what comes is dropped until the server closes.
template <class Stream>
bool H2Connection<Stream>::take_held(std::string_view bytes) {
  heard_at_ = Clock::now();
  if (closing_) return true;
  if (!idle_->input(bytes.data(), bytes.size())) {
    end_held(H2HoldEnd::How::lost, idle_->error());
    return false;
  }
  if (idle_->server_goaway() && holder_ != nullptr) {
    end_held(H2HoldEnd::How::by_server, {});
    return false;
  }
  flush();  // the answers
  return !ended_;
}

/// A user's own connection is counted in wire bytes, as an HTTP/1.1 one is: what was read goes
/// to the call waiting (and starts its `waiting`), or to the next call when none waits or its
/// request has not gone out yet. A shared connection's calls count their frames (H2Streams).
template <class Stream>
void H2Connection<Stream>::count_read(std::size_t n) {
  if (!own_ || !streams_) return;
  auto* call = streams_->some_call();
  if (call == nullptr || written_at_ == Clock::time_point{}) {
    unclaimed_read_ += n;
    return;
  }
  auto& response = *call->response;
  if (response.bytes_received == 0) response.waiting = Clock::now() - written_at_;
  response.bytes_received += n + std::exchange(unclaimed_read_, 0);
}

template <class Stream>
void H2Connection<Stream>::count_written(std::size_t n) {
  if (!own_ || !streams_ || n == 0) return;
  auto* call = streams_->some_call();
  auto* response = call != nullptr ? call->response : last_response_;
  if (response == nullptr) {
    unclaimed_written_ += n;
    return;
  }
  if (written_at_ == Clock::time_point{}) written_at_ = Clock::now();
  response->bytes_sent += n + std::exchange(unclaimed_written_, 0);
}

template <class Stream>
bool H2Connection<Stream>::submit(H2Waiter& call) {
  call.owner = this;
  call.on_done = call.on_arrival = &H2Connection::call_done;
  written_at_ = {};
  if (ended_ || !streams_ || !streams_->submit(call)) {
    if (!call.error) call.error = net::error::not_connected;
    call.phase = Phase::write;
    call.done = true;
    return false;
  }
  if (!connected_ && opener_ == nullptr) opener_ = &call;
  if (unclaimed_connect_) claim_connect(call, *std::exchange(unclaimed_connect_, std::nullopt));
  kick();
  return true;
}

template <class Stream>
void H2Connection<Stream>::send_more(H2Waiter& call) {
  if (ended_ || !streams_) return;
  streams_->send_more(call);
  kick();
}

template <class Stream>
void H2Connection<Stream>::withdraw(H2Waiter& call) {
  if (opener_ == &call) opener_ = nullptr;
  if (std::exchange(call.queued, false)) {  // its user may be gone before settle() comes to it
    std::replace(ready_.begin(), ready_.end(), &call, static_cast<H2Waiter*>(nullptr));
  }
  if (streams_) streams_->withdraw(call);
  kick();
}

/// Shared, after its last user: GOAWAY, then the close once nghttp2 is done. A user's own
/// (--hold) is handed to H2Idle first: GOAWAY, then the server's close is awaited, as at the
/// end of a hold.
template <class Stream>
net::awaitable<void> H2Connection<Stream>::goodbye() {
  if (ended_) co_return;
  if (!connected_) {
    closing_ = true;
    end();  // closes the socket under the connect, which then gives up
    co_return;
  }
  if (own_) {
    hand_over();
    say_goodbye();
  } else {
    closing_ = true;
    streams_->goodbye();
    kick();
  }
  if (ended_) co_return;
  gone_ = std::make_unique<net::steady_timer>(thread_.executor);
  gone_->expires_after(std::min<Clock::duration>(std::chrono::seconds(1), setup_.timeout));
  co_await gone_->async_wait(as_tuple);  // end() cancels it
  if (!ended_) end();                    // the server did not close in time
}

template <class Stream>
void H2Connection<Stream>::close() {
  if (ended_) return;
  if (holder_ != nullptr) {  // the holder's clock ran out: after our goodbye, no failure
    end_held(closing_ ? H2HoldEnd::How::goodbye : H2HoldEnd::How::lost,
             closing_ ? boost::system::error_code() : net::error::operation_aborted);
    return;
  }
  if (streams_) streams_->fail_all(net::error::operation_aborted, Phase::read);
  end();
}

/// nghttp2's session goes, and what a held connection needs of it is kept: where it stands in
/// the server's frames and what it had to write (with the part of a write under way, which
/// pointed into the session's output).
template <class Stream>
void H2Connection<Stream>::hand_over() {
  if (idle_) return;
  if (writing_) {
    held_output_.assign(unsent_);
    unsent_ = held_output_;
  }
  idle_.emplace(streams_->hand_over());
  streams_.reset();
}

template <class Stream>
bool H2Connection<Stream>::hold(H2HoldEnd& holder) {
  holder_ = &holder;
  heard_at_ = Clock::now();
  if (ended_) {  // the server closed it (or sent GOAWAY) after the last response
    end_held(!ended_by_ || closed_by_server(ended_by_) ? H2HoldEnd::How::by_server
                                                       : H2HoldEnd::How::lost,
             ended_by_);
    return true;
  }
  hand_over();
  if (idle_->server_goaway()) {  // the last response came with the server's goodbye
    end_held(H2HoldEnd::How::by_server, {});
    return true;
  }
  flush();  // what the session had left to write
  return true;
}

template <class Stream>
void H2Connection<Stream>::ping() {
  idle_->ping();
  flush();
}

template <class Stream>
void H2Connection<Stream>::say_goodbye() {
  closing_ = true;
  idle_->goodbye();
  flush();
}

template <class Stream>
void H2Connection<Stream>::expire() {
  deadline_ = Clock::time_point::max();
  expired_ = true;
  close_under(stream_);
}

/// H2Streams says a call is over (or, streaming, that more of it arrived): its user is resumed
/// by the reader's settle(), or, when the call ended elsewhere (the connection failed), by one
/// posted for it. A streaming call may be here more than once: settle() resumes it once a wait.
template <class Stream>
void H2Connection<Stream>::call_done(H2Call& call) {
  auto& self = *static_cast<H2Connection*>(call.owner);
  if (std::exchange(call.queued, true)) return;
  self.ready_.push_back(static_cast<H2Waiter*>(&call));
  if (self.settling_ || self.settle_posted_) return;
  self.settle_posted_ = true;
  net::post(self.thread_.executor, [self = self.shared_from_this()] {
    self->settle_posted_ = false;
    self->settle();
  });
}

/// Resumes each user whose call is over, in place; what they submit meanwhile goes out in one
/// write after (unless `write` is false). A resumed user may end another call here (its
/// connection's goodbye): the loop takes the calls added while it runs.
template <class Stream>
void H2Connection<Stream>::settle(bool write) {
  settling_ = true;
  for (std::size_t i = 0; i < ready_.size(); ++i) {
    auto* call = ready_[i];
    if (call == nullptr) continue;  // withdrawn meanwhile
    call->queued = false;
    if (auto resume = std::exchange(call->resume, nullptr)) std::move(resume)();
  }
  ready_.clear();
  settling_ = false;
  if (write) flush();
}

/// A call was submitted or withdrawn: a settling reader writes it soon, else one posted flush.
template <class Stream>
void H2Connection<Stream>::kick() {
  if (settling_ || flush_posted_) return;
  flush_posted_ = true;
  net::post(thread_.executor, [self = this->shared_from_this()] {
    self->flush_posted_ = false;
    self->flush();
  });
}

/// Writes what the session (or, held, H2Idle) has to send straight to the socket (over TLS,
/// through OpenSSL) as far as it takes it; the rest once it is writable, one write at a time.
template <class Stream>
void H2Connection<Stream>::flush() {
  if (writing_ || ended_ || !connected_) return;
  for (;;) {
    const auto output = next_output();
    if (ended_) return;
    if (output.empty()) {
      wrote_all();
      return;
    }
    const auto sent = write_now(output);
    if (ended_) return;
    if (sent != output.size()) {
      write_rest(output.substr(sent));
      return;
    }
  }
}

/// flush(), what goes out with no call on the connection counted in `response` (the call that
/// just ended).
template <class Stream>
void H2Connection<Stream>::flush_for(model::Response& response) {
  last_response_ = &response;
  flush();
  last_response_ = nullptr;
}

/// The bytes to write next: the session's output, or a held connection's frames.
template <class Stream>
std::string_view H2Connection<Stream>::next_output() {
  if (idle_) {
    held_output_ = idle_->take_output();
    return held_output_;
  }
  const auto output = streams_->output();
  if (streams_->error()) fail(streams_->error(), Phase::read);
  return output;
}

/// Nothing is left to write: after our GOAWAY, the connection closes (shared), or the end of our
/// side asks the server to close (held: no TLS close_notify, nothing waits for one).
template <class Stream>
void H2Connection<Stream>::wrote_all() {
  if (!closing_) return;
  if (idle_) {
    boost::system::error_code ignored;
    tcp_socket(*stream_).shutdown(net::socket_base::shutdown_send, ignored);
  } else if (streams_->finished()) {
    notify_close(*stream_);
    end();
  }
}

/// Writes `output` as far as the socket takes it, and says how far; a failure fails the
/// connection (ended_).
template <class Stream>
std::size_t H2Connection<Stream>::write_now(std::string_view output) {
  boost::system::error_code error;
  const auto sent = stream_->write_some(net::buffer(output), error);
  count_written(sent);
  if (error && error != net::error::would_block) fail(error, Phase::write);
  return sent;
}

/// What the socket did not take, once it can take more; flush() again after. `rest` points
/// into the session's output, which stays as it is until the next output(), after this write
/// (over TLS it must: OpenSSL holds the first record of it and is handed it again), or into
/// held_output_ once a hold took the session's place.
template <class Stream>
void H2Connection<Stream>::write_rest(std::string_view rest) {
  writing_ = true;
  unsent_ = rest;
  tcp_socket(*stream_).async_wait(
      write_wait(*stream_),
      [self = this->shared_from_this()](const boost::system::error_code& error) {
        self->writing_ = false;
        if (self->ended_) return;
        if (error) {
          self->fail(error, Phase::write);
          return;
        }
        const auto rest = self->unsent_;
        const auto sent = self->write_now(rest);
        if (self->ended_) return;
        if (sent == rest.size()) {
          self->flush();
        } else {
          self->write_rest(rest.substr(sent));
        }
      });
}

/// The connection failed: every stream on it with it, each counted by its user (or, held, the
/// hold is lost).
template <class Stream>
void H2Connection<Stream>::fail(const boost::system::error_code& error, Phase phase) {
  if (ended_) return;
  if (holder_ != nullptr) {
    end_held(H2HoldEnd::How::lost, error);
    return;
  }
  ended_by_ = error;
  if (streams_) streams_->fail_all(error, phase);
  end();
}

template <class Stream>
void H2Connection<Stream>::end_held(H2HoldEnd::How how, const boost::system::error_code& error) {
  auto* holder = std::exchange(holder_, nullptr);
  end();
  if (holder != nullptr) holder->held_ended(how, error);
}

template <class Stream>
void H2Connection<Stream>::end() {
  ended_ = true;
  if (streams_)
    streams_->fail_all(net::error::eof, Phase::read);  // none left, unless the server lied
  close_under(stream_);
  if (gone_) gone_->cancel();
}

template <class Stream>
std::shared_ptr<H2Connection<Stream>> H2Shared<Stream>::connection(
    std::chrono::nanoseconds connect_timeout) {
  auto current = current_.lock();
  if (current && current->accepting()) return current;
  current =
      std::make_shared<H2Connection<Stream>>(setup_, thread_, H2Streams::Use::shared, tls_session_);
  current_ = current;
  current->start(connect_timeout);
  return current;
}

template <class Stream>
net::awaitable<void> H2Shared<Stream>::leave() {
  if (users_ == 0 || --users_ > 0) co_return;
  if (auto current = current_.lock()) co_await current->goodbye();
}

template class H2Connection<TcpStream>;
template class H2Connection<TlsSocket>;
template class H2Shared<TcpStream>;
template class H2Shared<TlsSocket>;

}  // namespace stampede::client
