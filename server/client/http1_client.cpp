// HTTP/1.1 client over plain TCP or TLS: one connection per user, reused with keep-alive.
#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <optional>
#include <type_traits>
#include <utility>

#include "server/client/classify.hpp"
#include "server/client/client_base.hpp"
#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/response_parser.hpp"

namespace stampede::client {

namespace {

namespace beast = boost::beast;
using Clock = std::chrono::steady_clock;
constexpr auto as_tuple = net::as_tuple(net::use_awaitable);
constexpr std::size_t debug_bytes = 4096;

bool end_of_stream(const boost::system::error_code& error) {
  return error == net::error::eof || error == net::ssl::error::stream_truncated;
}

template <class Stream>
class Http1Client final : public ClientBase {
 public:
  Http1Client(const ClientSetup& setup, ThreadContext& thread)
      : ClientBase(setup, thread, model::Protocol::http1) {}

  /// One frame for the whole exchange (retry, redirects, write and read loop): a user waiting
  /// for its response holds this frame and its own, not one per step; each nested frame
  /// stayed allocated while it waited, about 0.5 KB per connection.
  net::awaitable<void> exchange(const PreparedRequest& request,
                                model::Response& response) override {
    Step step = Step::failed;
    for (const auto* current = begin_exchange(request, response); current != nullptr;
         current = next_request(request, step, response)) {
      const bool reused = stream_.has_value();
      if (!reused) {
        // GCC 12 miscompiles `co_await` inside an if condition: results are named first.
        const bool opened = co_await open(response, request.connect_timeout);
        if (!opened) break;
      }
      const auto& bytes = std::get<Http1Wire>(current->wire).bytes;
      const auto [error, written] =
          co_await net::async_write(*stream_, net::buffer(bytes), as_tuple);
      response.bytes_sent += written;
      step = error ? write_failed(*current, response, reused, error)
                   : start_reading(*current, response);
      while (step == Step::more) {
        const auto [read_error, n] =
            co_await stream_->async_read_some(buffer_.prepare(read_size()), as_tuple);
        step = after_read(*current, response, reused, read_error, n);
      }
    }
    end_exchange(request, response);
  }

 private:
  void close_socket() override {
    if (!stream_) return;
    boost::system::error_code ignored;
    tcp_socket(*stream_).close(ignored);
  }

  /// Connects (and shakes hands over TLS); false with response.error set on failure.
  net::awaitable<bool> open(model::Response& response, std::chrono::nanoseconds connect_timeout) {
    const auto failure = co_await connect(stream_, response, connect_timeout);
    if (failure) co_return fail(response, failure->phase, failure->error);
    co_return true;
  }

  /// A write failed: a stale reused connection is retried (idempotent requests only).
  Step write_failed(const PreparedRequest& request, model::Response& response, bool reused,
                    const boost::system::error_code& error) {
    if (reused && request.idempotent && stale_connection(error)) return Step::stale;
    fail(response, Phase::write, error);  // a write cut short by the watchdog is a timeout
    return Step::failed;
  }

  /// The request is written: the clock for `waiting` starts, a fresh parser takes the reply.
  Step start_reading(const PreparedRequest& request, model::Response& response) {
    written_at_ = Clock::now();
    start_parser(request, response);
    debugging_ = claim_debug_slot();
    debug_.clear();
    return parse(request, response);
  }

  /// Accounts `n` bytes just read (or the error that ended the read) and parses them.
  Step after_read(const PreparedRequest& request, model::Response& response, bool reused,
                  const boost::system::error_code& error, std::size_t n) {
    buffer_.commit(n);
    note_read(n);
    if (debugging_) keep_debug_copy(n);
    if (n > 0 && response.bytes_received == 0) response.waiting = Clock::now() - written_at_;
    response.bytes_received += n;
    if (!error) return parse(request, response);
    if (end_of_stream(error) && finish_at_eof()) return finish(request, response);
    if (reused && request.idempotent && response.bytes_received == 0 && stale_connection(error)) {
      return Step::stale;
    }
    fail(response, Phase::read, error);
    return Step::failed;
  }

  /// Parses the buffered bytes: the final response (1xx skipped), a failure, or read more.
  Step parse(const PreparedRequest& request, model::Response& response) {
    while (parse_buffered(response)) {
      if (!interim(response.status)) return finish(request, response);
      start_parser(request, response);  // a 1xx: the final response follows
    }
    return response.error == model::ErrorKind::none ? Step::more : Step::failed;
  }

  /// A complete response: the connection stays open only if both sides keep it alive.
  Step finish(const PreparedRequest& request, model::Response& response) {
    if (debugging_) log_exchange(request);
    response.keep_alive = parser_.keep_alive();
    if (!setup_.keep_alive || !response.keep_alive) close();
    return Step::done;
  }

  void start_parser(const PreparedRequest& request, model::Response& response) {
    parser_.start(response, setup_.keep_body, request.head);
  }

  /// RFC 9110 15.2: a client skips 1xx responses (100 Continue, 103 Early Hints) it did not
  /// ask to switch protocols with.
  static bool interim(int status) { return status >= 100 && status < 200 && status != 101; }

  /// Feeds buffered bytes to the parser; true when the response is complete.
  bool parse_buffered(model::Response& response) {
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
  bool finish_at_eof() { return parser_.got_some() && parser_.put_eof(); }

  bool fail(model::Response& response, Phase phase, const boost::system::error_code& error) {
    record_failure(response, phase, error);
    close();
    return false;
  }

  /// Appends the `n` bytes just read (up to debug_bytes) for the -d log.
  void keep_debug_copy(std::size_t n) {
    const auto data = buffer_.data();
    const auto* end = static_cast<const char*>(data.data()) + data.size();
    debug_.append(end - n, std::min(n, debug_bytes - std::min(debug_.size(), debug_bytes)));
  }

  void log_exchange(const PreparedRequest& request) const {
    spdlog::debug("request:\n{}\nresponse ({} bytes shown):\n{}",
                  std::get<Http1Wire>(request.wire).bytes.substr(0, debug_bytes), debug_.size(),
                  debug_);
  }

  void close() override {
    stream_.reset();
    buffer_.clear();
  }

  std::optional<Stream> stream_;
  ResponseParser parser_;         ///< one response at a time, restarted for each
  std::string debug_;             ///< raw response bytes for the -d log
  Clock::time_point written_at_;  ///< the request was written: `waiting` starts
  bool debugging_ = false;        ///< this exchange is one of the first few logged (-d)
  beast::flat_buffer buffer_;
};

}  // namespace

std::unique_ptr<Client> make_http1_client(const ClientSetup& setup, ThreadContext& thread) {
  return make_for_transport<Http1Client>(setup, thread);
}

}  // namespace stampede::client
