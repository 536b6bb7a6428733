// HTTP/1.1 client over plain TCP or TLS: one connection per user, reused with keep-alive.
#include "server/client/http1_client.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <tuple>
#include <type_traits>
#include <utility>

#include "server/client/classify.hpp"
#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/tls_socket.hpp"

namespace stampede::client {

namespace {

constexpr std::size_t debug_bytes = 4096;

/// RFC 9110 15.2: a client skips 1xx responses (100 Continue, 103 Early Hints) it did not
/// ask to switch protocols with.
bool interim(int status) { return status >= 100 && status < 200 && status != 101; }

}  // namespace

template <class Stream>
net::awaitable<void> Http1Client<Stream>::exchange(const PreparedRequest& request,
                                                   model::Response& response) {
  Step step = Step::failed;
  for (const auto* current = begin_exchange(request, response); current != nullptr;
       current = next_request(request, step, response)) {
    const bool reused = connected();
    if (!reused) {
      // GCC 12 miscompiles `co_await` inside an if condition: results are named first.
      const auto failure = co_await connect(stream_, response, request.connect_timeout);
      if (failure) {
        fail(response, failure->phase, failure->error);
        break;
      }
    }
    const auto bytes = net::buffer(std::get<Http1Wire>(current->wire).bytes);
    boost::system::error_code error;
    std::size_t written = 0;
    if constexpr (over_tls<Stream>) {  // as far as the socket takes it now; a wait only for the
                                       // rest
      std::tie(error, written) = co_await stream_->write_all(bytes);
    } else {
      // The socket is non-blocking (connect.hpp): a request the socket takes whole goes now,
      // with no operation through the scheduler; only what it leaves waits.
      written = stream_->write_some(bytes, error);
      if (error == net::error::would_block) error = {};
      if (!error && written < bytes.size()) {
        std::size_t rest = 0;
        std::tie(error, rest) = co_await net::async_write(*stream_, bytes + written, as_tuple);
        written += rest;
      }
    }
    response.bytes_sent += written;
    step =
        error ? write_failed(*current, response, reused, error) : start_reading(*current, response);
    while (step == Step::more) {
      boost::system::error_code read_error;
      std::size_t n = 0;
      // TlsSocket: what has arrived, decrypted now; a wait only when nothing has.
      if constexpr (over_tls<Stream>) {
        std::tie(read_error, n) = co_await stream_->read_arrived(buffer_.prepare(read_size()));
      } else {
        std::tie(read_error, n) =
            co_await stream_->async_read_some(buffer_.prepare(read_size()), as_tuple);
      }
      step = after_read(*current, response, reused, read_error, n);
    }
  }
  end_exchange(request, response);
}

template <class Stream>
std::optional<Switched<Stream>> Http1Client<Stream>::take_switched() {
  if (!std::exchange(switched_, false) || !connected()) return std::nullopt;
  if constexpr (std::is_same_v<Stream, TcpStream>) {  // h2c: plain TCP only
    const auto rest = buffer_.data();
    Switched<Stream> switched{std::move(*stream_),
                              std::string(static_cast<const char*>(rest.data()), rest.size())};
    close();
    return switched;
  } else {
    return std::nullopt;
  }
}

template <class Stream>
void Http1Client<Stream>::close_socket() {
  close_under(stream_);
}

/// A write failed: a stale reused connection is retried (idempotent requests only).
template <class Stream>
ClientBase::Step Http1Client<Stream>::write_failed(const PreparedRequest& request,
                                                   model::Response& response, bool reused,
                                                   const boost::system::error_code& error) {
  if (reused && request.idempotent && stale_connection(error)) return Step::stale;
  fail(response, Phase::write, error);  // a write cut short by the watchdog is a timeout
  return Step::failed;
}

/// The request is written: the clock for `waiting` starts, a fresh parser takes the reply.
template <class Stream>
ClientBase::Step Http1Client<Stream>::start_reading(const PreparedRequest& request,
                                                    model::Response& response) {
  written_at_ = Clock::now();
  start_parser(request, response);
  debugging_ = claim_debug_slot();
  debug_.clear();
  return parse(request, response);
}

/// Accounts `n` bytes just read (or the error that ended the read) and parses them.
template <class Stream>
ClientBase::Step Http1Client<Stream>::after_read(const PreparedRequest& request,
                                                 model::Response& response, bool reused,
                                                 const boost::system::error_code& error,
                                                 std::size_t n) {
  buffer_.commit(n);
  note_read(n);
  if (debugging_) keep_debug_copy(n);
  if (n > 0 && response.bytes_received == 0) response.waiting = Clock::now() - written_at_;
  response.bytes_received += n;
  if (!error) return parse(request, response);
  if (end_of_stream(error) && finish_at_eof()) return complete(request, response);
  if (reused && request.idempotent && response.bytes_received == 0 && stale_connection(error)) {
    return Step::stale;
  }
  fail(response, Phase::read, error);
  return Step::failed;
}

/// Parses the buffered bytes: the final response (1xx skipped), a failure, or read more.
template <class Stream>
ClientBase::Step Http1Client<Stream>::parse(const PreparedRequest& request,
                                            model::Response& response) {
  while (parse_buffered(response)) {
    if (!interim(response.status)) return complete(request, response);
    start_parser(request, response);  // a 1xx: the final response follows
  }
  return response.error == model::ErrorKind::none ? Step::more : Step::failed;
}

/// A complete response: the connection stays open only if both sides keep it alive. A 101 to
/// an h2c upgrade leaves it open for the HTTP/2 client, with what was read after the 101.
template <class Stream>
ClientBase::Step Http1Client<Stream>::complete(const PreparedRequest& request,
                                               model::Response& response) {
  if (debugging_) log_exchange(request);
  response.keep_alive = parser_.keep_alive();
  switched_ = response.status == 101 && setup_.h2c_upgrade;
  if (switched_) return Step::done;
  if (!setup_.keep_alive || !response.keep_alive) close();
  return Step::done;
}

template <class Stream>
void Http1Client<Stream>::start_parser(const PreparedRequest& request, model::Response& response) {
  parser_.start(response, setup_.keep_body, request.head);
}

/// Feeds buffered bytes to the parser; true when the response is complete.
template <class Stream>
bool Http1Client<Stream>::parse_buffered(model::Response& response) {
  while (buffer_.size() > 0) {
    boost::system::error_code error;
    const auto data = buffer_.data();
    const auto used = parser_.put({static_cast<const char*>(data.data()), data.size()}, error);
    buffer_.consume(used);
    if (parser_.done()) return true;
    if (error) return fail(response, Phase::read, error);
    if (used == 0) return false;
  }
  return false;
}

/// A response without Content-Length ends when the server closes the connection.
template <class Stream>
bool Http1Client<Stream>::finish_at_eof() {
  return parser_.got_some() && parser_.put_eof();
}

template <class Stream>
bool Http1Client<Stream>::fail(model::Response& response, Phase phase,
                               const boost::system::error_code& error) {
  record_failure(response, phase, error);
  close();
  return false;
}

/// Appends the `n` bytes just read (up to debug_bytes) for the -d log.
template <class Stream>
void Http1Client<Stream>::keep_debug_copy(std::size_t n) {
  const auto data = buffer_.data();
  const auto* end = static_cast<const char*>(data.data()) + data.size();
  debug_.append(end - n, std::min(n, debug_bytes - std::min(debug_.size(), debug_bytes)));
}

template <class Stream>
void Http1Client<Stream>::log_exchange(const PreparedRequest& request) const {
  spdlog::debug("request:\n{}\nresponse ({} bytes shown):\n{}",
                std::get<Http1Wire>(request.wire).bytes.substr(0, debug_bytes), debug_.size(),
                debug_);
}

/// Over TCP the socket object stays, closed, for the next connection (open_stream() opens it
/// anew). A TLS stream goes: the next connection needs a new SSL object.
template <class Stream>
void Http1Client<Stream>::close() {
  if constexpr (std::is_same_v<Stream, TcpStream>) {
    close_under(stream_);
  } else {
    stream_.reset();
  }
  buffer_.clear();
}

template <class Stream>
bool Http1Client<Stream>::connected() const {
  if constexpr (std::is_same_v<Stream, TcpStream>) return stream_ && stream_->is_open();
  return stream_.has_value();
}

template class Http1Client<TcpStream>;
template class Http1Client<TlsSocket>;

std::unique_ptr<Client> make_http1_client(const ClientSetup& setup, ThreadContext& thread) {
  return make_for_transport<Http1Client>(setup, thread);
}

}  // namespace stampede::client
