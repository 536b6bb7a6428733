// HTTP/1.1 client over plain TCP or TLS: one connection per user, reused with keep-alive.
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <optional>
#include <type_traits>
#include <utility>

#include "server/client/classify.hpp"
#include "server/client/client.hpp"
#include "server/client/content_decoding.hpp"
#include "server/client/redirect.hpp"
#include "server/client/response_parser.hpp"

namespace stampede::client {

namespace {

namespace beast = boost::beast;
using Clock = std::chrono::steady_clock;
using TcpStream = net::ip::tcp::socket;
using TlsStream = net::ssl::stream<TcpStream>;
constexpr auto as_tuple = net::as_tuple(net::use_awaitable);
/// Reads start small (1 KiB, as nginx's client_header_buffer_size), since an idle connection's
/// buffer is memory per user and most API responses fit, and grow while reads fill the buffer
/// (large bodies then take fewer syscalls; a user's buffer keeps its size across requests).
constexpr std::size_t min_read_size = 1024;
constexpr std::size_t max_read_size = 64 * 1024;
constexpr std::size_t debug_bytes = 4096;

/// A server may close an idle keep-alive connection just as we reuse it. A request that then
/// fails before any response byte is retried once on a new connection, but only when its
/// method is idempotent (RFC 9110 9.2.2), as browsers and Go's client do: the server may
/// have read it.
bool stale_connection(const boost::system::error_code& error) {
  return error == net::error::eof || error == net::error::connection_reset ||
         error == net::error::broken_pipe || error == net::ssl::error::stream_truncated;
}

bool end_of_stream(const boost::system::error_code& error) {
  return error == net::error::eof || error == net::ssl::error::stream_truncated;
}

template <class Stream>
class Http1Client final : public Client, Watchdog::Guarded {
 public:
  Http1Client(net::any_io_executor executor, const ClientSetup& setup, Watchdog& watchdog)
      : executor_(std::move(executor)), setup_(setup), watchdog_(watchdog) {
    watchdog_.watch(this);
  }
  ~Http1Client() { watchdog_.forget(this); }
  Http1Client(const Http1Client&) = delete;
  Http1Client& operator=(const Http1Client&) = delete;

  /// One frame for the whole exchange (retry, redirects, write and read loop): a user waiting
  /// for its response holds this frame and its own, not one per step; each nested frame
  /// stayed allocated while it waited, about 0.5 KB per connection.
  net::awaitable<void> exchange(const PreparedRequest& request,
                                model::Response& response) override {
    response.clear();
    timed_out_ = false;
    const auto limit = request.timeout.count() > 0 ? request.timeout : setup_.timeout;
    deadline_ = Clock::now() + limit;
    const PreparedRequest* current = &request;  // then each redirect hop's
    bool may_retry = true;
    for (int hops = 0;;) {
      const bool reused = stream_.has_value();
      if (!reused) {
        // GCC 12 miscompiles `co_await` inside an if condition: results are named first.
        const bool opened = co_await open(response, request.connect_timeout);
        if (!opened) break;
      }
      const auto [error, written] =
          co_await net::async_write(*stream_, net::buffer(current->bytes), as_tuple);
      response.bytes_sent += written;
      auto step = error ? write_failed(*current, response, reused, error)
                        : start_reading(*current, response);
      while (step == Step::read) {
        const auto [read_error, n] =
            co_await stream_->async_read_some(buffer_.prepare(read_size_), as_tuple);
        step = after_read(*current, response, reused, read_error, n);
      }
      if (step == Step::stale && std::exchange(may_retry, false)) {
        close();
        response.clear();
        continue;
      }
      if (step != Step::done) break;
      current = next_hop(request.follow_redirects_of, hops, response);
      if (current == nullptr) break;
      may_retry = true;
    }
    deadline_ = Clock::time_point::max();
    if (response.error != model::ErrorKind::none) close();
  }

  [[nodiscard]] Clock::time_point deadline() const override { return deadline_; }

  /// Past the deadline: closing the socket fails the pending operation, which then reports
  /// a timeout.
  void expire() override {
    timed_out_ = true;
    if (!stream_) return;
    boost::system::error_code ignored;
    socket().close(ignored);
  }

 private:
  TcpStream& socket() {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      return stream_->next_layer();
    } else {
      return *stream_;
    }
  }

  /// Connects (and shakes hands over TLS), within `connect_timeout` if it is set; false with
  /// response.error set on failure.
  net::awaitable<bool> open(model::Response& response, std::chrono::nanoseconds connect_timeout) {
    const auto start = Clock::now();
    const auto whole = deadline_;
    if (connect_timeout.count() > 0) deadline_ = std::min(whole, start + connect_timeout);
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      stream_.emplace(executor_, *setup_.tls);
    } else {
      stream_.emplace(executor_);
    }
    // Iterators, not the vector: the range overload copies the vector for every connection.
    const auto& endpoints = setup_.endpoints;
    const auto [error, endpoint] =
        co_await net::async_connect(socket(), endpoints.begin(), endpoints.end(), as_tuple);
    if (error) co_return fail(response, Phase::connect, error);
    boost::system::error_code ignored;
    socket().set_option(net::ip::tcp::no_delay(true), ignored);
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      const bool secured = co_await handshake(response);
      if (!secured) co_return false;
    }
    deadline_ = whole;
    response.connect = Clock::now() - start;
    response.new_connection = true;
    co_return true;
  }

  net::awaitable<bool> handshake(model::Response& response) {
    // SNI carries names only, never an address literal (RFC 6066).
    boost::system::error_code not_an_address;
    (void)net::ip::make_address(setup_.host, not_an_address);
    if (not_an_address) SSL_set_tlsext_host_name(stream_->native_handle(), setup_.host.c_str());
    stream_->set_verify_callback(net::ssl::host_name_verification(setup_.host));
    const auto [error] = co_await stream_->async_handshake(net::ssl::stream_base::client, as_tuple);
    if (error) co_return fail(response, Phase::handshake, error);
    co_return true;
  }

  /// What an exchange does next, after a write or a read.
  enum class Step { read, done, stale, failed };

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
    // A plain load first: every thread shares this counter, so the hot path must not write it.
    debugging_ = setup_.debug_budget.load(std::memory_order_relaxed) > 0 &&
                 setup_.debug_budget.fetch_sub(1, std::memory_order_relaxed) > 0;
    debug_.clear();
    return parse(request, response);
  }

  /// Accounts `n` bytes just read (or the error that ended the read) and parses them.
  Step after_read(const PreparedRequest& request, model::Response& response, bool reused,
                  const boost::system::error_code& error, std::size_t n) {
    buffer_.commit(n);
    if (n == read_size_) read_size_ = std::min(read_size_ * 2, max_read_size);
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
    return response.error == model::ErrorKind::none ? Step::read : Step::failed;
  }

  /// A complete response: the connection stays open only if both sides keep it alive.
  Step finish(const PreparedRequest& request, model::Response& response) {
    if (debugging_) log_exchange(request);
    response.keep_alive = parser_.keep_alive();
    if (!setup_.keep_alive || !response.keep_alive) close();
    if (request.decode_body && setup_.keep_body && !response.content_encoding.empty()) {
      const auto error = decode_content(response.content_encoding, response.body);
      if (error) {
        fail(response, Phase::read, error);
        return Step::failed;
      }
    }
    return Step::done;
  }

  /// -redirect: the next same-origin hop's request, or null when this response is the last.
  const PreparedRequest* next_hop(const model::Request* origin, int& hops,
                                  model::Response& response) {
    if (origin == nullptr || hops == max_redirects || !is_redirect(response.status)) {
      return nullptr;
    }
    // hop_ may still hold an earlier exchange's last hop: the first hop starts from the origin.
    const std::string_view from = hops == 0 ? std::string_view(origin->target) : hop_->target;
    auto next = follow_redirect(*origin, from, response.status, response.location);
    if (!next) return nullptr;
    hop_ = std::move(next);
    ++hops;
    response.body.clear();
    response.body_bytes = 0;
    return &hop_->prepared;
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
    response.error = timed_out_ ? model::ErrorKind::timeout : classify(phase, error);
    log_first_failure(response.error, error);
    close();
    return false;
  }

  void log_first_failure(model::ErrorKind kind, const boost::system::error_code& error) {
    auto& flag = setup_.failure_logged[static_cast<std::size_t>(kind)];
    if (flag.test_and_set(std::memory_order_relaxed)) return;
    if (kind == model::ErrorKind::timeout) {
      spdlog::warn("first timeout failure: no complete response within {:g} s (-t)",
                   std::chrono::duration<double>(setup_.timeout).count());
      return;
    }
    // The hint only where it helps: a certificate that did not verify (not, say, a plain-HTTP
    // server on an https:// URL).
    const bool certificate = kind == model::ErrorKind::tls && !setup_.insecure &&
                             error.category() == net::error::get_ssl_category() &&
                             ERR_GET_REASON(static_cast<unsigned long>(error.value())) ==
                                 SSL_R_CERTIFICATE_VERIFY_FAILED;
    spdlog::warn("first {} failure: {}{}", model::to_string(kind), error.message(),
                 certificate ? " (for a self-signed test server, use --insecure)" : "");
  }

  /// Appends the `n` bytes just read (up to debug_bytes) for the -d log.
  void keep_debug_copy(std::size_t n) {
    const auto data = buffer_.data();
    const auto* end = static_cast<const char*>(data.data()) + data.size();
    debug_.append(end - n, std::min(n, debug_bytes - std::min(debug_.size(), debug_bytes)));
  }

  void log_exchange(const PreparedRequest& request) const {
    spdlog::debug("request:\n{}\nresponse ({} bytes shown):\n{}",
                  request.bytes.substr(0, debug_bytes), debug_.size(), debug_);
  }

  void close() {
    stream_.reset();
    buffer_.clear();
  }

  net::any_io_executor executor_;
  const ClientSetup& setup_;
  Watchdog& watchdog_;
  std::optional<Stream> stream_;
  ResponseParser parser_;         ///< one response at a time, restarted for each
  std::optional<Redirect> hop_;   ///< the redirect being followed (-redirect)
  std::string debug_;             ///< raw response bytes for the -d log
  Clock::time_point written_at_;  ///< the request was written: `waiting` starts
  bool debugging_ = false;        ///< this exchange is one of the first few logged (-d)
  beast::flat_buffer buffer_;
  std::size_t read_size_ = min_read_size;
  Clock::time_point deadline_ = Clock::time_point::max();
  bool timed_out_ = false;
};

}  // namespace

std::unique_ptr<Client> make_client(net::any_io_executor executor, const ClientSetup& setup,
                                    Watchdog& watchdog) {
  if (setup.tls != nullptr) {
    return std::make_unique<Http1Client<TlsStream>>(executor, setup, watchdog);
  }
  return std::make_unique<Http1Client<TcpStream>>(executor, setup, watchdog);
}

}  // namespace stampede::client
