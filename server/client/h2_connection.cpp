// H2Connection: a shared HTTP/2 connection's connect, reader and writer; H2Shared: its slot.
#include "server/client/h2_connection.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <utility>

#include <openssl/bio.h>
#include <openssl/ssl.h>

#include "server/client/connect.hpp"

namespace stampede::client {

namespace {

constexpr auto as_tuple = net::as_tuple(net::use_awaitable);

/// A read: a few users' responses at a time (h2load reads 8 KiB).
constexpr std::size_t input_size = 16 * 1024;

/// A whole TLS record read from the socket waits in OpenSSL, so the next read returns at once.
/// Why the reader asks: Asio's TLS stream hands over one record a read, and nginx sends one
/// a response, so writing after each would send each user's next request apart (one TLS
/// record and one send a request); the reader writes once the socket's bytes are all read.
/// A record only partly there does not count: its rest may be slow to come.
bool record_waiting(const TlsStream& stream) {
  auto* ssl = const_cast<TlsStream&>(stream).native_handle();
  if (SSL_pending(ssl) > 0) return true;
  char* data = nullptr;  // peeks at the bytes of the BIO pair Asio feeds OpenSSL through
  const int available = BIO_nread0(SSL_get_rbio(ssl), &data);
  constexpr int header = 5;  // type, version, length
  if (available < header) return false;
  const int length =
      (static_cast<unsigned char>(data[3]) << 8) | static_cast<unsigned char>(data[4]);
  return available >= header + length;
}

bool record_waiting(const TcpStream&) { return false; }

}  // namespace

template <class Stream>
H2Connection<Stream>::H2Connection(const ClientSetup& setup, ThreadContext& thread)
    : setup_(setup), thread_(thread), gone_(thread.executor) {
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
  self->flush();  // the preface, and the calls submitted while it connected
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
  if constexpr (std::is_same_v<Stream, TcpStream>) {
    boost::system::error_code ignored;  // reads and writes go straight to the socket first
    stream_->non_blocking(true, ignored);
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
  for (;;) {
    const auto [error, bytes] = co_await receive();
    if (ended_) co_return;
    if (error) {
      if (closing_) {
        end();
      } else {
        fail(error, Phase::read);
      }
      co_return;
    }
    settling_ = true;  // the calls that end in input() are resumed by settle(), not posted
    if (!streams_.input(bytes.data(), bytes.size())) {
      settling_ = false;
      fail(streams_.error(), Phase::read);
      co_return;
    }
    // Resumes the users whose streams ended, then writes what they and nghttp2 have; over
    // TLS, once the records that came with this read are all read.
    const bool more = record_waiting(*stream_);
    settle(!more);
    if (more) owe_flush();
    if (!closing_ && !streams_.accepting() && streams_.calls() == 0) {
      end();  // the server's GOAWAY, and every stream it left us is over
      co_return;
    }
  }
}

/// The next bytes from the connection. Over TCP they are read into the thread's buffer, which
/// the reader hands to nghttp2 before anything else runs, so that a connection waiting for its
/// server holds no buffer of its own (16 KiB a connection was most of stampede's memory beside
/// h2load's): it waits for the socket to be readable, then reads. That costs no syscall more
/// than a read that finds nothing: Asio re-arms the socket in epoll for the wait instead.
template <class Stream>
net::awaitable<std::pair<boost::system::error_code, std::string_view>>
H2Connection<Stream>::receive() {
  if constexpr (std::is_same_v<Stream, TlsStream>) {  // the TLS stream reads for OpenSSL itself
    // Not zeroed: only the pages a record fills count in memory (a response is a few hundred
    // bytes).
    if (!input_) input_ = std::make_unique_for_overwrite<char[]>(input_size);
    const auto [error, n] =
        co_await stream_->async_read_some(net::buffer(input_.get(), input_size), as_tuple);
    co_return std::pair{error, std::string_view(input_.get(), n)};
  } else {
    auto& buffer = thread_.read_buffer;
    if (buffer.empty()) buffer.resize(input_size);
    for (;;) {
      if (!readable_) {
        const auto [error] = co_await stream_->async_wait(TcpStream::wait_read, as_tuple);
        if (error) co_return std::pair{error, std::string_view()};
      }
      boost::system::error_code error;
      const auto n = stream_->read_some(net::buffer(buffer), error);
      readable_ = !error && n == buffer.size();  // a shorter read emptied the socket
      if (error != net::error::would_block) {
        co_return std::pair{error, std::string_view(buffer.data(), n)};
      }
    }
  }
}

template <class Stream>
bool H2Connection<Stream>::submit(H2Waiter& call) {
  call.owner = this;
  call.on_done = &H2Connection::call_done;
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
void H2Connection<Stream>::withdraw(H2Waiter& call) {
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

/// H2Streams says a call is over: its user is resumed by the reader's settle(), or, when the
/// call ended elsewhere (the connection failed), by one posted for it.
template <class Stream>
void H2Connection<Stream>::call_done(H2Call& call) {
  auto& self = *static_cast<H2Connection*>(call.owner);
  self.ready_.push_back(static_cast<H2Waiter*>(&call));
  if (self.settling_ || self.settle_posted_) return;
  self.settle_posted_ = true;
  net::post(self.thread_.executor, [self = self.shared_from_this()] {
    self->settle_posted_ = false;
    self->settle();
  });
}

/// Resumes each user whose call is over, in place; what they submit meanwhile goes out in one
/// write after (unless `write` is false: the reader writes it later). A resumed user may end
/// another call here (its connection's goodbye): the loop takes the calls added while it runs.
template <class Stream>
void H2Connection<Stream>::settle(bool write) {
  settling_ = true;
  for (std::size_t i = 0; i < ready_.size(); ++i) {
    if (auto resume = std::exchange(ready_[i]->resume, nullptr)) std::move(resume)();
  }
  ready_.clear();
  settling_ = false;
  if (write) flush();
}

/// The reader put off writing because the next read returns at once: it writes then. In case
/// that read waits after all (the record held no data), a flush comes after it anyway: posted
/// from a posted handler, it runs after the read's completion, which that read posts now.
template <class Stream>
void H2Connection<Stream>::owe_flush() {
  flush_owed_ = true;
  net::post(thread_.executor, [self = this->shared_from_this()] {
    net::post(self->thread_.executor, [self] {
      if (self->flush_owed_) self->flush();
    });
  });
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

/// Writes what the session has to send: over TCP straight from the socket as far as it takes
/// it, the rest (and anything over TLS) with one async write at a time.
template <class Stream>
void H2Connection<Stream>::flush() {
  flush_owed_ = false;
  if (writing_ || ended_ || !connected_) return;
  for (;;) {
    const auto output = streams_.output();
    if (streams_.error()) {
      fail(streams_.error(), Phase::read);
      return;
    }
    if (output.empty()) {
      if (closing_ && streams_.finished()) end();  // our GOAWAY went out
      return;
    }
    std::size_t sent = 0;
    if constexpr (std::is_same_v<Stream, TcpStream>) {
      boost::system::error_code error;
      sent = stream_->write_some(net::buffer(output), error);
      if (error && error != net::error::would_block) {
        fail(error, Phase::write);
        return;
      }
      if (sent == output.size()) continue;
    }
    write_rest(output.substr(sent));
    return;
  }
}

/// What the socket did not take, with an async write; flush() again after. `rest` points into
/// the session's output, which stays as it is until the next output(), after this write.
template <class Stream>
void H2Connection<Stream>::write_rest(std::string_view rest) {
  writing_ = true;
  net::async_write(
      *stream_, net::buffer(rest),
      [self = this->shared_from_this()](const boost::system::error_code& error, std::size_t) {
        self->writing_ = false;
        if (self->ended_) return;
        if (error) {
          self->fail(error, Phase::write);
        } else {
          self->flush();
        }
      });
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
