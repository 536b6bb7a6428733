// A reader of responses as streams (events, gRPC messages, chunks) over HTTP/2: h2 by ALPN or
// h2c by prior knowledge, each stream on the user's own connection or, with -m, on one its
// thread's users share.
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <memory>
#include <string>
#include <utility>

#include "server/client/client_factories.hpp"
#include "server/client/h2_connection.hpp"
#include "server/client/stream_client_base.hpp"

namespace stampede::client {

namespace {

/// The stream is a call on an H2Connection that streams (H2Call::streaming): its HEADERS and
/// each DATA frame resume the user, the body gathering in head_.body until the events are
/// taken from it. The call stays the stream's across exchanges; the connection is kept for the
/// next stream (a reconnect) with -k, as an HTTP/2 client's is.
template <class Stream>
class StreamH2Client final : public StreamClientBase {
 public:
  StreamH2Client(const ClientSetup& setup, ThreadContext& thread, UserId user)
      : StreamClientBase(setup, thread, model::Protocol::http2) {
    head_.wanted_headers = {"content-type"};
    call_.keep_body = true;
    call_.streaming = true;
    call_.response = &head_;
    if (thread.shared_connections > 0) {
      shared_ = &thread.pool.slot<H2Shared<Stream>>(
          setup, static_cast<std::uint32_t>(user % thread.shared_connections),
          [&] { return std::make_shared<H2Shared<Stream>>(setup, thread); });
      shared_->join();
    }
  }

  ~StreamH2Client() override { drop_connection(); }
  StreamH2Client(const StreamH2Client&) = delete;
  StreamH2Client& operator=(const StreamH2Client&) = delete;

  net::awaitable<void> finish() override {
    drop_connection();
    if (shared_ != nullptr && !std::exchange(left_, true)) co_await shared_->leave();
  }

 private:
  /// Submits the stream's request (with the units' resume header on a reconnect) and waits for
  /// its head.
  net::awaitable<void> open_stream(const PreparedRequest& request,
                                   model::Response& response) override {
    opening();
    const auto& wire = std::get<Http2Wire>(request.wire);
    call_.request = &wire;
    if (const auto [name, value] = units().resume_header(); !name.empty()) {
      resending_ = wire;
      resending_.headers.emplace_back(name, value);
      call_.request = &resending_;
    }
    head_.status = 0;
    head_.headers.clear();
    head_.body.clear();
    head_.grpc_status_field.clear();
    head_.grpc_message.clear();
    // A request that streams starts with this exchange's message, the rest sent by send_unit().
    call_.outgoing = request.grpc_client_streaming ? &outgoing_ : nullptr;
    if (call_.outgoing != nullptr) outgoing_ = wire.body;
    uploads_ = request.grpc_client_streaming && !request.grpc_server_streaming;
    sent_ = 1;
    call_.outgoing_ends = uploads_ && setup_.messages_per_call == 1;
    call_.tell_when_sent = uploads_;
    if (own_ && !own_->accepting()) drop_connection();  // GOAWAY, or closed: a new one
    on_ =
        shared_ != nullptr ? shared_->connection(request.connect_timeout) : own_connection(request);
    on_->submit(call_);
    if (uploads_) {  // its head comes with its answer, at its end
      open_unheard(response);
      co_return;
    }
    while (!call_.done && head_.status < 200) co_await wait();
    take_counts(response);
    if (cut()) co_return;
    if (head_.status < 200) {  // the stream closed or failed before its head
      record_failure(response, call_.phase, call_.error ? call_.error : net::error::eof, hint());
      return_call();
      co_return;
    }
    if (!accept(request, response)) return_call();
  }

  /// The user's own connection, opened now unless one is kept.
  std::shared_ptr<H2Connection<Stream>> own_connection(const PreparedRequest& request) {
    if (!own_) {
      own_ = std::make_shared<H2Connection<Stream>>(setup_, thread_, H2Streams::Use::own,
                                                    tls_session());
      own_->start(request.connect_timeout);
    }
    return own_;
  }

  /// The exchange's message on a call whose request streams, after what went before it (its
  /// bytes already in frames are dropped first).
  void send_unit(const PreparedRequest& request) override {
    if (call_.outgoing == nullptr || on_ == nullptr || call_.done) return;
    if (call_.body_sent == outgoing_.size()) {
      outgoing_.clear();
      call_.body_sent = 0;
    }
    outgoing_ += std::get<Http2Wire>(request.wire).body;
    if (uploads_ && ++sent_ == setup_.messages_per_call) call_.outgoing_ends = true;
    on_->send_more(call_);
  }

  [[nodiscard]] bool uploads() const override { return uploads_; }

  /// A client-streaming call: an exchange short of the last is over once its message went into
  /// frames (the flow-control window let it go); the call's end, its answer, is read as a unary
  /// call's whole response, and the next exchange opens a new call.
  bool upload_step(model::Response& response) override {
    if (!call_.done && (call_.outgoing_ends || call_.body_sent < outgoing_.size())) return false;
    if (call_.done && call_.error) return false;  // read_more() says it
    take_counts(response);
    if (!call_.done) {
      response.sent_only = true;
      count_unit(response);
      return true;
    }
    response.status = head_.status;
    response.grpc_status_field = head_.grpc_status_field;
    response.grpc_message = head_.grpc_message;
    response.body.swap(head_.body);
    response.body_bytes = response.body.size();
    response.stream_ended = true;
    count_unit(response);
    forget_stream();
    stream_over();
    return true;
  }

  /// Waits for the stream's next frames unless some are here already (a client-streaming
  /// call's, until its message went or its end came).
  net::awaitable<boost::system::error_code> read_more(model::Response& response) override {
    if (!call_.done && (uploads_ || head_.body.empty())) co_await wait();
    take_counts(response);
    co_return call_.done ? call_.error : boost::system::error_code{};
  }

  /// Until the connection resumes this coroutine through call_.resume (see H2Connection for
  /// why no timer): more of the stream arrived, or it ended.
  net::awaitable<void> wait() {
    co_await net::async_initiate<decltype(net::use_awaitable), void()>(
        [this](auto resume) {
          // Not by assignment: Boost 1.81's move assignment of any_completion_handler copies
          // itself into a new wrapper, without end.
          net::any_completion_handler<void()>(std::move(resume)).swap(call_.resume);
        },
        net::use_awaitable);
  }

  /// What the connection counted in the stream's response goes to the exchange's: its bytes
  /// each way and, once, the connection it opened.
  void take_counts(model::Response& response) {
    response.bytes_received += std::exchange(head_.bytes_received, 0);
    response.bytes_sent += std::exchange(head_.bytes_sent, 0);
    if (std::exchange(head_.new_connection, false)) {
      response.new_connection = true;
      response.connect = head_.connect;
      response.negotiated = head_.negotiated;
    }
  }

  /// Over h2c nothing says whether the server speaks HTTP/2 until its SETTINGS come; over TLS,
  /// ALPN says.
  [[nodiscard]] std::string_view hint() const {
    if (call_.error == net::error::no_protocol_option) {
      return "the server did not select h2 by ALPN: drop -http2 to read its event streams";
    }
    if (over_tls<Stream> || on_ == nullptr || on_->server_settings()) return "";
    return "no HTTP/2 from the server: over http:// HTTP/2 is sent without asking first, which "
           "an HTTP/1.1-only server refuses";
  }

  [[nodiscard]] bool server_ended() const override { return call_.done && !call_.error; }
  [[nodiscard]] const model::Response& head() const override { return head_; }
  std::string& unparsed() override { return head_.body; }

  /// The stream closed: the connection stays for the next (a reconnect) with -k.
  void stream_over() override {
    on_.reset();
    if (!setup_.keep_alive) drop_connection();
  }

  /// -t, -z's end or the stopping run: the stream is reset (RST_STREAM CANCEL) and the user
  /// resumed with the error, its neighbours on a shared connection going on.
  void interrupt() override {
    if (on_ == nullptr || call_.done) return;
    on_->withdraw(call_);
    call_.done = true;
    call_.error = timed_out() ? net::error::timed_out : net::error::operation_aborted;
    call_.phase = Phase::read;
    if (call_.resume) net::post(thread_.executor, std::exchange(call_.resume, nullptr));
  }

  /// The stream is given up (refused, or the user is done with it): reset if still open.
  void return_call() {
    if (on_ != nullptr) on_->withdraw(call_);
    on_.reset();
  }

  void close() override {
    drop_connection();
    forget_stream();
  }

  /// Gives up the stream and closes the user's own connection (a shared one stays).
  void drop_connection() {
    return_call();
    if (auto connection = std::exchange(own_, nullptr)) connection->close();
    head_.body.clear();
  }

  H2Shared<Stream>* shared_ = nullptr;         ///< -m: the slot of the connection it shares
  std::shared_ptr<H2Connection<Stream>> own_;  ///< without -m: its own connection
  std::shared_ptr<H2Connection<Stream>> on_;   ///< where the stream's call is, while it is
  H2Waiter call_;
  model::Response head_;    ///< the stream's head, counts and body bytes not yet parsed
  Http2Wire resending_;     ///< the request with the resume header, for a reconnect
  std::string outgoing_;    ///< a streaming request's messages not yet all in frames
  bool uploads_ = false;    ///< the call is client-streaming: its answer comes at its end
  std::uint64_t sent_ = 0;  ///< its messages handed over so far
  bool left_ = false;       ///< -m: finish() left the shared connection
};

}  // namespace

std::unique_ptr<Client> make_stream_h2_client(const ClientSetup& setup, ThreadContext& thread,
                                              UserId user) {
  return make_for_transport<StreamH2Client>(setup, thread, user);
}

}  // namespace stampede::client
