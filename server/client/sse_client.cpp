// An event stream's reader (Server-Sent Events) over HTTP/1.1, plain TCP or TLS: each exchange
// is the stream's next event, the stream opened again (with Last-Event-ID) when the server ends it.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <charconv>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "model/http_syntax.hpp"
#include "server/client/client_base.hpp"
#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/failure_log.hpp"
#include "server/client/response_parser.hpp"
#include "server/client/sse_parser.hpp"

namespace stampede::client {

namespace {

/// The id as a number, when it is one (ids say how many events a reconnect lost only then).
std::optional<std::uint64_t> numeric_id(std::string_view id) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), value);
  if (id.empty() || error != std::errc{} || end != id.data() + id.size()) return std::nullopt;
  return value;
}

/// The head's Content-Type is text/event-stream (parameters after it allowed).
bool is_event_stream(const model::Response& head) {
  constexpr std::string_view type = "text/event-stream";
  for (const auto& [name, value] : head.headers) {
    if (name == "content-type" && value.size() >= type.size() &&
        model::same_field_name(std::string_view(value).substr(0, type.size()), type)) {
      return true;
    }
  }
  return false;
}

template <class Stream>
class SseClient final : public ClientBase, private LongLived {
 public:
  SseClient(const ClientSetup& setup, ThreadContext& thread)
      : ClientBase(setup, thread, model::Protocol::http1) {
    head_.wanted_headers = {"content-type"};
  }

  LongLived* long_lived() override { return this; }
  [[nodiscard]] bool is_open() const override { return streaming_; }

  /// The stream's next event: from what was read already, or read now. A stream the server
  /// ended ends the exchange with no event (Response::stream_ended), or with --reconnect is
  /// opened again, after the delay its `retry:` asked for. -t bounds the wait, and -z's end
  /// cuts it short (the wait is then no event, and counted as none).
  net::awaitable<void> exchange(const PreparedRequest& request,
                                model::Response& response) override {
    begin_exchange(request, response);
    const auto timeout_at = deadline();
    if (thread_.window_end < timeout_at) arm_deadline(thread_.window_end);
    waiting_ = true;
    while (response.error == model::ErrorKind::none && !cut_) {
      if (!streaming_) {
        co_await open_stream(request, response);
        continue;
      }
      if (next_event(response)) break;
      if (parser_.done()) {  // the server ended the stream
        end_stream(response);
        if (!setup_.reconnect || response.error != model::ErrorKind::none) break;
        co_await wait_to_reconnect(response);
        continue;
      }
      const auto error = co_await read_some(response);
      if (error && !cut_) record_failure(response, Phase::read, error);
    }
    waiting_ = false;
    if (std::exchange(cut_, false)) {
      response.error = model::ErrorKind::none;
      response.cut_short = true;
      close();
    }
    // An event that came past -z's end, before the watchdog looked, is still an event.
    if (deadline() < timeout_at && response.error == model::ErrorKind::none) {
      arm_deadline(timeout_at);
    }
    end_exchange(request, response);
  }

 private:
  /// -z's end: the wait for an event ends as the stopping run's does.
  bool say_goodbye() override {
    if (!waiting_ || Clock::now() < thread_.window_end) return false;
    cut_short();
    return true;
  }

  void cut_short() override {
    if (!waiting_) return;
    cut_ = true;
    close_socket();
  }

  /// Connects if no connection is kept, sends the request (with the last event id, if the
  /// stream gave one) and reads the response's head: a 200 with text/event-stream opens the
  /// stream; any other answer is refused as `handshake`, its status counted.
  net::awaitable<void> open_stream(const PreparedRequest& request, model::Response& response) {
    opened_at_ = Clock::now();
    for (bool retry = true;; retry = false) {
      const bool reused = stream_.has_value();
      if (!reused) {
        const auto failure = co_await connect(stream_, response, request.connect_timeout);
        if (failure) {
          if (!cut_) record_failure(response, failure->phase, failure->error);
          co_return;
        }
      }
      const auto [error, written] = co_await write_request(request);
      response.bytes_sent += written;
      auto failed = error;
      if (!failed) failed = co_await read_head(response);  // not in a condition: GCC 12
      if (!failed || cut_) break;
      // A kept connection the server had closed before any answer: once on a new one.
      const bool nothing_read = error || (parser_.in_head() && !parser_.got_some());
      const bool stale = reused && nothing_read && stale_connection(failed);
      if (!retry || !stale) {
        record_failure(response, error ? Phase::write : Phase::read, failed);
        co_return;
      }
      drop_connection();
    }
    if (!cut_ && response.error == model::ErrorKind::none) accept_head(request, response);
  }

  /// Reads until the response's head is complete (a 1xx skipped): the error that stopped it.
  net::awaitable<boost::system::error_code> read_head(model::Response& response) {
    parser_.start(head_, true, false);
    while (!cut_ && response.error == model::ErrorKind::none) {
      if (!parser_.in_head()) {
        const bool interim = head_.status >= 100 && head_.status < 200;
        if (!interim) break;
        parser_.start(head_, true, false);  // RFC 9110 15.2: the final response follows
        parse_buffered(response);
        continue;
      }
      const auto error = co_await read_some(response);
      if (error) co_return error;
    }
    co_return boost::system::error_code{};
  }

  /// The head is read: the stream opens if it is one.
  void accept_head(const PreparedRequest& request, model::Response& response) {
    response.status = head_.status;
    if (head_.status != 200 || !is_event_stream(head_)) {
      response.error = model::ErrorKind::handshake;
      log_first_failure(
          setup_, response.error, {},
          "the server answered " + std::to_string(head_.status) + " without a text/event-stream");
      return;
    }
    resumed_from_ = numeric_id(sse_.last_event_id());
    sse_.restart(request.max_message);
    streaming_ = true;
    first_ = true;
    response.stream_opened = true;
  }

  /// The request as prepared, or with Last-Event-ID added to its head when the stream had an
  /// id (a reconnect, as a browser's).
  net::awaitable<std::tuple<boost::system::error_code, std::size_t>> write_request(
      const PreparedRequest& request) {
    std::string_view bytes = std::get<Http1Wire>(request.wire).bytes;
    if (const auto& id = sse_.last_event_id(); !id.empty()) {
      const auto end = bytes.find("\r\n\r\n") + 2;
      resending_.assign(bytes.substr(0, end)).append("Last-Event-ID: ").append(id);
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
  net::awaitable<boost::system::error_code> read_some(model::Response& response) {
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
    if (!error && !cut_) parse_buffered(response);
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

  /// The next event of what was read, into `response`; true when there was one, or a fault
  /// that fails the exchange.
  bool next_event(model::Response& response) {
    auto& body = head_.body;
    while (!body.empty()) {
      const auto used = sse_.put(body);
      body.erase(0, used);
      if (const auto event = sse_.event()) {
        deliver(*event, response);
        return true;
      }
      if (sse_.fault() != SseFault::none) {
        const bool too_long = sse_.fault() == SseFault::too_long;
        response.error = too_long ? model::ErrorKind::too_big : model::ErrorKind::protocol;
        log_first_failure(setup_, response.error, {},
                          too_long ? "an event stream's line was over --max-message"
                                   : "an event's data was not UTF-8");
        return true;
      }
      if (used == 0) return false;
    }
    return false;
  }

  void deliver(std::string_view data, model::Response& response) {
    response.status = head_.status;
    response.body_bytes = data.size();
    if (setup_.keep_body) response.body.assign(data);
    response.keep_alive = true;
    response.stream_event = first_ ? model::StreamEvent::first : model::StreamEvent::next;
    if (!std::exchange(first_, false)) return;
    response.first_event = Clock::now() - opened_at_;
    const auto id = numeric_id(sse_.last_event_id());
    if (resumed_from_ && id && *id > *resumed_from_ + 1) {
      response.events_lost = static_cast<std::uint32_t>(*id - *resumed_from_ - 1);
    }
  }

  /// The server ended the stream (its response is complete): the connection is kept for the
  /// next stream only with -k and if the server keeps it. With --reconnect, a stream that
  /// ended without an event fails the exchange as `closed`: opening it again at once would
  /// loop as fast as the server answers.
  void end_stream(model::Response& response) {
    streaming_ = false;
    if (first_ && setup_.reconnect) {
      response.error = model::ErrorKind::closed;
      log_first_failure(setup_, response.error, {},
                        "the server ended an event stream before its first event");
    } else {
      response.stream_ended = true;
    }
    if (!keep_connection_ || !setup_.keep_alive || !parser_.keep_alive()) drop_connection();
    keep_connection_ = true;
  }

  /// Waits the delay the stream's `retry:` asked for before the next stream, as a browser does;
  /// -t may end the wait first.
  net::awaitable<void> wait_to_reconnect(model::Response& response) {
    const auto delay = sse_.retry();
    if (!delay || delay->count() == 0) co_return;
    net::steady_timer timer(executor_, *delay);
    retry_timer_ = &timer;
    co_await timer.async_wait(as_tuple);
    retry_timer_ = nullptr;
    if (timed_out()) record_failure(response, Phase::connect, net::error::timed_out);
  }

  void close_socket() override {
    close_under(stream_);
    if (retry_timer_ != nullptr) retry_timer_->cancel();
  }

  void drop_connection() {
    stream_.reset();
    buffer_.clear();
  }

  void close() override {
    drop_connection();
    streaming_ = false;
    keep_connection_ = true;
    head_.body.clear();
  }

  std::optional<Stream> stream_;
  ResponseParser parser_;
  /// The stream's response: its status and Content-Type, and body bytes not yet parsed.
  model::Response head_;
  SseParser sse_{0};
  boost::beast::flat_buffer buffer_;
  std::string resending_;  ///< the request with Last-Event-ID, for a reconnect
  Clock::time_point opened_at_;
  std::optional<std::uint64_t> resumed_from_;  ///< the Last-Event-ID the stream was opened with
  net::steady_timer* retry_timer_ = nullptr;   ///< wait_to_reconnect()'s, while it waits
  bool streaming_ = false;                     ///< a stream is open
  bool first_ = false;                         ///< its next event is its first
  bool waiting_ = false;                       ///< an exchange waits for an event
  bool cut_ = false;                           ///< the stopping run or -z's end cut the wait short
  bool keep_connection_ = true;                ///< false: the stream ended with the connection
};

}  // namespace

std::unique_ptr<Client> make_sse_client(const ClientSetup& setup, ThreadContext& thread) {
  return make_for_transport<SseClient>(setup, thread);
}

}  // namespace stampede::client
