// A reader of responses as streams (events, chunks) over HTTP/1.1, plain TCP or TLS.
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <optional>
#include <string>
#include <tuple>

#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/response_parser.hpp"
#include "server/client/stream_client_base.hpp"

namespace stampede::client {

namespace {

/// A stream over HTTP/1.1: the response's head and framing by ResponseParser, its body into
/// head_.body for the units. A kept connection the server had closed is retried once;
/// the connection is kept for the next stream only with -k and if the server keeps it.
template <class Stream>
class StreamH1Client final : public StreamClientBase {
 public:
  StreamH1Client(const ClientSetup& setup, ThreadContext& thread)
      : StreamClientBase(setup, thread, model::Protocol::http1) {
    head_.wanted_headers = {"content-type"};
  }

 private:
  /// Connects if no connection is kept, sends the request and reads the response's head.
  net::awaitable<void> open_stream(const PreparedRequest& request,
                                   model::Response& response) override {
    opening();
    for (bool retry = true;; retry = false) {
      const bool reused = stream_.has_value();
      if (!reused) {
        const auto failure = co_await connect(stream_, response, request.connect_timeout);
        if (failure) {
          if (!cut()) record_failure(response, failure->phase, failure->error);
          co_return;
        }
      }
      const auto [error, written] = co_await write_request(request);
      response.bytes_sent += written;
      auto failed = error;
      if (!failed) failed = co_await read_head(response);  // not in a condition: GCC 12
      if (!failed || cut()) break;
      // A kept connection the server had closed before any answer: once on a new one.
      const bool nothing_read = error || (parser_.in_head() && !parser_.got_some());
      const bool stale = reused && nothing_read && stale_connection(failed);
      if (!retry || !stale) {
        record_failure(response, error ? Phase::write : Phase::read, failed);
        co_return;
      }
      drop_connection();
    }
    if (!cut() && response.error == model::ErrorKind::none) {
      accept(request, response);
    }
  }

  /// Reads until the response's head is complete (a 1xx skipped): the error that stopped it.
  net::awaitable<boost::system::error_code> read_head(model::Response& response) {
    parser_.start(head_, true, false);
    while (!cut() && response.error == model::ErrorKind::none) {
      if (!parser_.in_head()) {
        const bool interim = head_.status >= 100 && head_.status < 200;
        if (!interim) break;
        parser_.start(head_, true, false);  // RFC 9110 15.2: the final response follows
        parse_buffered(response);
        continue;
      }
      const auto error = co_await read_more(response);
      if (error) co_return error;
    }
    co_return boost::system::error_code{};
  }

  /// The request as prepared, or with the units' resume header added to its head (SSE's
  /// Last-Event-ID on a reconnect, as a browser's).
  net::awaitable<std::tuple<boost::system::error_code, std::size_t>> write_request(
      const PreparedRequest& request) {
    std::string_view bytes = std::get<Http1Wire>(request.wire).bytes;
    if (const auto [name, value] = units().resume_header(); !name.empty()) {
      const auto end = bytes.find("\r\n\r\n") + 2;
      resending_.assign(bytes.substr(0, end)).append(name).append(": ").append(value);
      resending_.append("\r\n").append(bytes.substr(end));
      bytes = resending_;
    }
    if constexpr (over_tls<Stream>) {
      co_return co_await stream_->write_all(net::buffer(bytes));
    } else {
      co_return co_await net::async_write(*stream_, net::buffer(bytes), as_tuple);
    }
  }

  /// Reads what has arrived and parses it (the body goes to head_.body for the events): the
  /// read's error, none when the connection's end completed the stream.
  net::awaitable<boost::system::error_code> read_more(model::Response& response) override {
    boost::system::error_code error;
    std::size_t n = 0;
    if constexpr (over_tls<Stream>) {
      std::tie(error, n) = co_await stream_->read_arrived(buffer_.prepare(read_size()));
    } else {
      std::tie(error, n) =
          co_await stream_->async_read_some(buffer_.prepare(read_size()), as_tuple);
    }
    buffer_.commit(n);
    note_read(n);
    response.bytes_received += n;
    if (end_of_stream(error) && !parser_.in_head() && parser_.put_eof()) {
      keep_connection_ = false;  // a stream that ran to the connection's end
      co_return boost::system::error_code{};
    }
    if (!error && !cut()) parse_buffered(response);
    co_return error;
  }

  void parse_buffered(model::Response& response) {
    while (buffer_.size() > 0 && !parser_.done()) {
      boost::system::error_code error;
      const auto data = buffer_.data();
      const auto used = parser_.put({static_cast<const char*>(data.data()), data.size()}, error);
      buffer_.consume(used);
      if (error) {
        record_failure(response, Phase::read, error);
        return;
      }
      if (used == 0) return;
    }
  }

  [[nodiscard]] bool server_ended() const override { return parser_.done(); }
  [[nodiscard]] const model::Response& head() const override { return head_; }
  std::string& unparsed() override { return head_.body; }

  void stream_over() override {
    if (!keep_connection_ || !setup_.keep_alive || !parser_.keep_alive()) drop_connection();
    keep_connection_ = true;
  }

  void interrupt() override { close_under(stream_); }

  void drop_connection() {
    stream_.reset();
    buffer_.clear();
  }

  void close() override {
    drop_connection();
    forget_stream();
    keep_connection_ = true;
    head_.body.clear();
  }

  std::optional<Stream> stream_;
  ResponseParser parser_;
  /// The stream's response: its status and Content-Type, and body bytes not yet parsed.
  model::Response head_;
  boost::beast::flat_buffer buffer_;
  std::string resending_;        ///< the request with the resume header, for a reconnect
  bool keep_connection_ = true;  ///< false: the stream ended with the connection
};

}  // namespace

std::unique_ptr<Client> make_stream_h1_client(const ClientSetup& setup, ThreadContext& thread) {
  return make_for_transport<StreamH1Client>(setup, thread);
}

}  // namespace stampede::client
