// H2Connection: a shared HTTP/2 connection's connect, reader and writer; H2Shared: its slot.
#include "server/client/h2_connection.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "server/client/connect.hpp"

namespace stampede::client {

namespace {

constexpr auto as_tuple = net::as_tuple(net::use_awaitable);

/// Reads per connection: a few users' responses at a time (h2load reads 8 KiB).
constexpr std::size_t input_size = 16 * 1024;

}  // namespace

template <class Stream>
H2Connection<Stream>::H2Connection(const ClientSetup& setup, ThreadContext& thread)
    : setup_(setup), thread_(thread), wake_(thread.executor), gone_(thread.executor) {
  thread_.watchdog->watch(this);
}

template <class Stream>
H2Connection<Stream>::~H2Connection() {
  thread_.watchdog->forget(this);
}

template <class Stream>
void H2Connection<Stream>::start(std::chrono::nanoseconds connect_timeout) {
  net::co_spawn(thread_.executor, run(this->shared_from_this(), connect_timeout), net::detached);
}

template <class Stream>
net::awaitable<void> H2Connection<Stream>::run(std::shared_ptr<H2Connection> self,
                                               std::chrono::nanoseconds connect_timeout) {
  const bool connected = co_await self->connect(connect_timeout);
  if (!connected) co_return;
  net::co_spawn(self->thread_.executor, write_all(self), net::detached);
  co_await self->read_all();
}

/// TCP, then TLS: the connect time goes to the call that made it connect (or, if that call
/// gave up meanwhile, to another waiting), so that each connection opened counts once.
template <class Stream>
net::awaitable<bool> H2Connection<Stream>::connect(std::chrono::nanoseconds connect_timeout) {
  const auto start = Clock::now();
  const auto limit = connect_timeout.count() > 0
                         ? std::min<std::chrono::nanoseconds>(connect_timeout, setup_.timeout)
                         : setup_.timeout;
  deadline_ = start + limit;
  const auto failure = co_await open_stream(stream_, thread_.executor, setup_);
  deadline_ = Clock::time_point::max();
  if (failure) {
    fail(failure->error, failure->phase);
    co_return false;
  }
  if constexpr (std::is_same_v<Stream, TlsStream>) {
    if (!alpn_selected_h2(*stream_)) {
      http1_ = true;  // its calls fail, and their users go over HTTP/1.1
      fail(net::error::no_protocol_option, Phase::handshake);
      co_return false;
    }
  }
  connected_ = true;
  if (auto* first = opener_ != nullptr ? opener_ : streams_.some_call()) {
    first->response->new_connection = true;
    first->response->negotiated =
        std::is_same_v<Stream, TlsStream> ? model::Negotiated::h2 : model::Negotiated::h2c;
    first->response->connect = Clock::now() - start;
  }
  opener_ = nullptr;
  co_return true;
}

template <class Stream>
net::awaitable<void> H2Connection<Stream>::read_all() {
  input_.resize(input_size);
  for (;;) {
    const auto [error, n] = co_await stream_->async_read_some(net::buffer(input_), as_tuple);
    if (ended_) co_return;
    if (error) {
      if (closing_) {
        end();
      } else {
        fail(error, Phase::read);
      }
      co_return;
    }
    if (!streams_.input(input_.data(), n)) {
      fail(streams_.error(), Phase::read);
      co_return;
    }
    kick();  // a SETTINGS or PING ACK, a WINDOW_UPDATE, the next queued request
    if (!closing_ && !streams_.accepting() && streams_.calls() == 0) {
      end();  // the server's GOAWAY, and every stream it left us is over
      co_return;
    }
  }
}

template <class Stream>
net::awaitable<void> H2Connection<Stream>::write_all(std::shared_ptr<H2Connection> self) {
  while (!self->ended_) {
    const auto output = self->streams_.output();
    if (self->streams_.error()) {
      self->fail(self->streams_.error(), Phase::read);
    } else if (!output.empty()) {
      const auto [error, n] =
          co_await net::async_write(*self->stream_, net::buffer(output), as_tuple);
      if (error && !self->ended_) self->fail(error, Phase::write);
    } else if (self->closing_ && self->streams_.finished()) {
      self->end();  // our GOAWAY went out
    } else {
      self->writer_idle_ = true;
      self->wake_.expires_at(Clock::time_point::max());
      co_await self->wake_.async_wait(as_tuple);
      self->writer_idle_ = false;
    }
  }
}

template <class Stream>
bool H2Connection<Stream>::submit(H2Call& call) {
  if (ended_ || !streams_.submit(call)) {
    if (!call.error) call.error = net::error::not_connected;
    call.phase = Phase::write;
    call.done = true;
    return false;
  }
  if (!connected_ && opener_ == nullptr) opener_ = &call;
  kick();
  return true;
}

template <class Stream>
void H2Connection<Stream>::withdraw(H2Call& call) {
  if (opener_ == &call) opener_ = nullptr;
  streams_.withdraw(call);
  kick();
}

template <class Stream>
net::awaitable<void> H2Connection<Stream>::goodbye() {
  if (ended_) co_return;
  closing_ = true;
  if (!connected_) {
    end();  // closes the socket under the connect, which then gives up
    co_return;
  }
  streams_.goodbye();
  kick();
  gone_.expires_after(std::chrono::seconds(1));
  co_await gone_.async_wait(as_tuple);  // end() cancels it
}

template <class Stream>
void H2Connection<Stream>::expire() {
  deadline_ = Clock::time_point::max();
  boost::system::error_code ignored;
  if (stream_) tcp_socket(*stream_).close(ignored);
}

template <class Stream>
void H2Connection<Stream>::kick() {
  if (writer_idle_) wake_.cancel();
}

/// The connection failed: every stream on it with it, each counted by its user.
template <class Stream>
void H2Connection<Stream>::fail(const boost::system::error_code& error, Phase phase) {
  if (ended_) return;
  streams_.fail_all(error, phase);
  end();
}

template <class Stream>
void H2Connection<Stream>::end() {
  ended_ = true;
  streams_.fail_all(net::error::eof, Phase::read);  // none left, unless the server lied
  boost::system::error_code ignored;
  if (stream_) tcp_socket(*stream_).close(ignored);
  wake_.cancel();
  gone_.cancel();
}

template <class Stream>
std::shared_ptr<H2Connection<Stream>> H2Shared<Stream>::connection(
    std::chrono::nanoseconds connect_timeout) {
  auto current = current_.lock();
  if (current && current->accepting()) return current;
  current = std::make_shared<H2Connection<Stream>>(setup_, thread_);
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
template class H2Connection<TlsStream>;
template class H2Shared<TcpStream>;
template class H2Shared<TlsStream>;

}  // namespace stampede::client
