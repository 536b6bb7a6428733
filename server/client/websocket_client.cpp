// WebSocket client (RFC 6455) over plain TCP or TLS: one connection per user, opened apart from
// the exchanges, and one message and its reply per exchange.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <charconv>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <utility>

#include "server/client/client_base.hpp"
#include "server/client/client_factories.hpp"
#include "server/client/connect.hpp"
#include "server/client/websocket_transport.hpp"

namespace stampede::client {

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using Clock = std::chrono::steady_clock;

/// Appends "<user>_<i>" to `out`: go-stress-testing's seq, which its servers echo.
void append_seq(std::string& out, UserId user, std::uint64_t sent) {
  std::array<char, 48> text{};
  auto* end = std::to_chars(text.data(), text.data() + 20, user).ptr;
  *end++ = '_';
  end = std::to_chars(end, text.data() + text.size(), sent).ptr;
  out.append(text.data(), end);
}

template <class Stream>
class WebSocketClient final : public ClientBase, private LongLived, private TeardownWatch {
 public:
  WebSocketClient(const ClientSetup& setup, ThreadContext& thread, UserId user)
      : ClientBase(setup, thread, model::Protocol::websocket), user_(user) {}

  LongLived* long_lived() override { return this; }
  [[nodiscard]] bool opens_apart() const override { return true; }
  [[nodiscard]] bool is_open() const override { return ws_.has_value(); }
  [[nodiscard]] int close_code() const override { return close_code_; }

  net::awaitable<void> open(const PreparedRequest& request, model::Response& response) override {
    begin_exchange(request, response);
    co_await upgrade(request, response);
    end_exchange(request, response);
  }

  /// One message and the next message the server sends back, in one frame: a user waiting
  /// for a reply holds this frame and its own only.
  net::awaitable<void> exchange(const PreparedRequest& request,
                                model::Response& response) override {
    begin_exchange(request, response);
    response.websocket = true;
    if (!ws_) co_await upgrade(request, response);
    if (response.error == model::ErrorKind::none) {
      const auto& wire = std::get<WebSocketWire>(request.wire);
      const auto& message = message_for(wire, response);
      ws_->binary(wire.binary);
      const auto [write_error, written] = co_await ws_->async_write(net::buffer(message), as_tuple);
      ++sent_;
      if (write_error) {
        record_failure(response, Phase::write, write_error);
      } else {
        const auto sent_at = Clock::now();
        buffer_.clear();
        awaiting_reply_ = true;
        const auto [read_error, n] = co_await ws_->async_read(buffer_, as_tuple);
        awaiting_reply_ = false;
        response.cut_short = said_goodbye_ && read_error;  // else the reply came first
        if (!response.cut_short) after_read(response, read_error, n, sent_at);
        count_wire_bytes(response);
        if (claim_debug_slot()) log_exchange(message, response);
        if (said_goodbye_) co_await end_goodbye();
        end_exchange(request, response);
        co_return;
      }
    }
    if (ws_) count_wire_bytes(response);  // an upgrade refused, or a write that failed
    end_exchange(request, response);
  }

  /// Reads the next message (answering the server's pings, and sending ours with --ping).
  /// When the watchdog says the time is up, or the stopping run does, say_goodbye() sends the
  /// close frame and the read ends when the server answers it. The server closing first, or
  /// the connection failing, is how the hold ended.
  net::awaitable<void> receive(Clock::time_point until, model::Response& response) override {
    response.clear();
    response.websocket = true;
    if (!ws_) co_return;
    if (!said_goodbye_) {
      arm_deadline(until);
      holding_ = true;
    }
    buffer_.clear();
    const auto [error, n] = co_await ws_->async_read(buffer_, as_tuple);
    count_wire_bytes(response);
    if (!error) {
      after_read(response, error, n, Clock::now());
      co_return;
    }
    if (!said_goodbye_) record_failure(response, Phase::read, error);
    holding_ = false;
    co_await end_goodbye();
  }

  /// As receive() in a loop, with callbacks: the user's coroutine has ended, and a held
  /// connection keeps Beast's state, this client and one pending read (the reply buffer and
  /// the ping text are freed).
  bool hold(Clock::time_point until, std::shared_ptr<HoldOwner> owner) override {
    if (!ws_) return false;
    arm_deadline(until);
    holding_ = true;
    owner_ = owner;
    buffer_ = {};
    std::string().swap(message_);
    read_held(std::move(owner));
    return true;
  }

  /// Sends a close frame and waits for the server's (Beast reads and drops what comes before
  /// it), within the goodbye's limit or -t, whichever is shorter.
  net::awaitable<void> finish() override {
    if (!ws_) co_return;
    arm_goodbye_deadline();
    co_await ws_->async_close(websocket::close_code::normal, as_tuple);
    stop_clock();
    close();
  }

 private:
  /// While held, the close frame goes out beside the pending read (Beast allows one read and
  /// one write at a time), in a coroutine of its own that hold() waits for.
  bool say_goodbye() override {
    if (!holding_) return false;
    holding_ = false;
    start_goodbye();
    return true;
  }

  /// The run stops while a reply is awaited: the close frame goes out beside the read, which
  /// ends when the server answers it (Ctrl-C closes every connection with a close frame).
  void cut_short() override {
    if (awaiting_reply_ && !said_goodbye_ && !closing_) start_goodbye();
  }

  /// Beast closes the connection within a read (the server's close frame, a reply over
  /// --max-message, a broken frame) and waits for the server's TCP close: no goodbye of ours
  /// on top, and a goodbye's limit on the wait.
  void teardown_started() override {
    closing_ = true;
    holding_ = false;
    bound_by_goodbye();
  }

  void start_goodbye() {
    said_goodbye_ = true;
    goodbye_started_ = true;
    arm_goodbye_deadline();
    net::co_spawn(executor_, goodbye(owner_.lock()), net::detached);
  }

  /// `owner`: a hold apart's, kept alive (with this client) until the close is done.
  net::awaitable<void> goodbye(std::shared_ptr<HoldOwner> owner) {
    co_await ws_->async_close(websocket::close_code::normal, as_tuple);
    goodbye_started_ = false;
    if (joiner_ != nullptr) joiner_->cancel();
    if (owner && hold_over_) end_held(*owner);
  }

  /// A held connection's next frame, read into the thread's scratch buffer: what it says is
  /// dropped (Beast answers pings and a close within the read). The read's operation is
  /// allocated at its own size: from Asio's per-thread cache it would keep whatever block came
  /// first, such as the upgrade's, for as long as the connection is held.
  void read_held(std::shared_ptr<HoldOwner> owner) {
    static thread_local std::array<char, 4096> scratch;
    const std::pmr::polymorphic_allocator<std::byte> exact(std::pmr::new_delete_resource());
    ws_->async_read_some(net::buffer(scratch),
                         net::bind_allocator(exact, [this, owner = std::move(owner)](
                                                        beast::error_code error, std::size_t) {
                           on_held(error, owner);
                         }));
  }

  void on_held(const beast::error_code& error, const std::shared_ptr<HoldOwner>& owner) {
    if (!error) {
      read_held(owner);
      return;
    }
    held_outcome_ = said_goodbye_ ? model::ErrorKind::none : failure(Phase::read, error);
    holding_ = false;
    hold_over_ = true;
    if (!goodbye_started_) end_held(*owner);  // else goodbye() ends it when the close is done
  }

  void end_held(HoldOwner& owner) {
    hold_over_ = false;
    owner_.reset();
    stop_clock();
    close();
    owner.hold_ended(*this, held_outcome_);
  }

  /// Waits for goodbye() to finish, if it runs (the client must outlive it), then drops the
  /// connection.
  net::awaitable<void> end_goodbye() {
    if (goodbye_started_) {
      net::steady_timer joiner(executor_, Clock::time_point::max());
      joiner_ = &joiner;
      co_await joiner.async_wait(as_tuple);
      joiner_ = nullptr;
    }
    stop_clock();
    close();
  }

  /// Connects (TCP, TLS) and asks to upgrade; the connect time covers all three. A refused
  /// upgrade keeps the status the server answered.
  net::awaitable<void> upgrade(const PreparedRequest& request, model::Response& response) {
    const auto start = Clock::now();
    // The stream lives in this frame until the upgrade: as a member it would be memory per
    // connection for as long as the connection is held.
    std::optional<Stream> raw;
    connecting_ = &raw;
    const auto failure = co_await connect(raw, response, request.connect_timeout);
    connecting_ = nullptr;
    if (failure) {
      record_failure(response, failure->phase, failure->error);
      co_return;
    }
    const auto& wire = std::get<WebSocketWire>(request.wire);
    ws_.emplace(std::move(*raw), static_cast<TeardownWatch&>(*this));
    configure(wire);
    websocket::response_type answer;
    const auto [error] = co_await ws_->async_handshake(answer, wire.host, wire.target, as_tuple);
    response.status = static_cast<int>(answer.result_int());
    if (error) {
      record_failure(response, Phase::read, error);
      co_return;
    }
    response.connect = Clock::now() - start;
    response.keep_alive = true;
  }

  /// The limits and the upgrade request's headers. The write buffer (where a client masks what
  /// it sends) is sized to the message, so a small message costs a small buffer per connection
  /// and a large one a few writes at most.
  void configure(const WebSocketWire& wire) {
    ws_->read_message_max(wire.max_message);
    ws_->auto_fragment(false);
    if (setup_.ping_interval.count() > 0) {
      // Beast pings after half the idle timeout without a frame, and gives up on the
      // connection (beast::error::timeout) if nothing arrives in the other half.
      websocket::stream_base::timeout timeouts{};
      timeouts.handshake_timeout = websocket::stream_base::none();
      timeouts.idle_timeout = 2 * std::chrono::duration_cast<Clock::duration>(setup_.ping_interval);
      timeouts.keep_alive_pings = true;
      ws_->set_option(timeouts);
    }
    constexpr std::size_t ping_size = 64;
    const auto size = wire.ping ? ping_size : wire.message.size();
    ws_->write_buffer_bytes(std::clamp<std::size_t>(size, 64, 64 * 1024));
    ws_->set_option(websocket::stream_base::decorator(
        [headers = &wire.headers](websocket::request_type& upgrade) {
          for (const auto& [name, value] : *headers) upgrade.set(name, value);
        }));
  }

  /// The message to send: the wire's, or go-stress-testing's ping with this exchange's seq.
  const std::string& message_for(const WebSocketWire& wire, model::Response& response) {
    if (!wire.ping) return wire.message;
    append_seq(response.sent_seq, user_, sent_);
    message_ = R"({"seq":")";
    message_ += response.sent_seq;
    message_ += R"(","cmd":"ping","data":{}})";
    return message_;
  }

  void after_read(model::Response& response, const boost::system::error_code& error, std::size_t n,
                  Clock::time_point sent_at) {
    if (error) {
      record_failure(response, Phase::read, error);
      return;
    }
    response.waiting = Clock::now() - sent_at;
    response.body_bytes = n;
    response.keep_alive = true;
    if (setup_.keep_body) response.body = beast::buffers_to_string(buffer_.data());
  }

  /// The bytes the connection moved since the last exchange counted them: the upgrade in the
  /// first, each frame's header, pings and pongs; the message payloads are `body_bytes`.
  void count_wire_bytes(model::Response& response) {
    const auto& transport = ws_->next_layer();
    response.bytes_received = transport.bytes_read() - counted_read_;
    response.bytes_sent = transport.bytes_written() - counted_written_;
    counted_read_ = transport.bytes_read();
    counted_written_ = transport.bytes_written();
  }

  void log_exchange(const std::string& message, const model::Response& response) const {
    spdlog::debug("message sent ({} bytes):\n{}\nreply ({} bytes):\n{}", message.size(), message,
                  response.body_bytes, beast::buffers_to_string(buffer_.data()));
  }

  void close_socket() override {
    if (connecting_ != nullptr) close_under(*connecting_);
    boost::system::error_code ignored;
    if (ws_) tcp_socket(ws_->next_layer()).close(ignored);
  }

  void close() override {
    said_goodbye_ = false;
    closing_ = false;
    // Beast keeps the close frame it read (none: code 0) until the stream goes.
    close_code_ = ws_ ? static_cast<int>(ws_->reason().code) : 0;
    ws_.reset();
    counted_read_ = 0;
    counted_written_ = 0;
    buffer_ = {};
  }

  UserId user_;
  std::uint64_t sent_ = 0;                       ///< messages sent: the i of the ping's seq
  std::optional<Stream>* connecting_ = nullptr;  ///< upgrade()'s stream while it connects
  /// The upgraded connection; `false`: without permessage-deflate (never offered), so no
  /// inflate/deflate state is compiled in.
  std::optional<websocket::stream<WebSocketTransport<Stream>, false>> ws_;
  beast::flat_buffer buffer_;            ///< the reply being read
  std::uint64_t counted_read_ = 0;       ///< the transport's bytes read, counted so far
  std::uint64_t counted_written_ = 0;    ///< and written
  int close_code_ = 0;                   ///< the server's, on the connection that ended last
  std::string message_;                  ///< the ping being sent
  bool holding_ = false;                 ///< receive() or hold() is reading: its end is a goodbye
  bool awaiting_reply_ = false;          ///< exchange() is reading: a stop cuts it short
  bool said_goodbye_ = false;            ///< the hold's end is ours: its read's error is no failure
  bool goodbye_started_ = false;         ///< goodbye() runs
  bool closing_ = false;                 ///< Beast's closing handshake is under way
  net::steady_timer* joiner_ = nullptr;  ///< receive() waits on it for goodbye() to end
  std::weak_ptr<HoldOwner> owner_;       ///< a hold apart's, for goodbye() to keep
  bool hold_over_ = false;               ///< a hold apart's read ended; the goodbye may run on
  model::ErrorKind held_outcome_ = model::ErrorKind::none;  ///< how the hold apart ended
};

}  // namespace

std::unique_ptr<Client> make_websocket_client(const ClientSetup& setup, ThreadContext& thread,
                                              UserId user) {
  return make_for_transport<WebSocketClient>(setup, thread, user);
}

}  // namespace stampede::client
