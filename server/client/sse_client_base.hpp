// What an event stream's reader does over any HTTP version: an exchange is the stream's next
// event, the stream opened again (with Last-Event-ID) when the server ends it and --reconnect
// asks; the transport (HTTP/1.1 or an HTTP/2 stream) is the subclass's.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "server/client/client_base.hpp"
#include "server/client/sse_parser.hpp"

namespace stampede::client {

/// A user's event stream. Each exchange returns one event (its data the response's body, its
/// wait the latency; a stream's first event is timed from the stream's request), or the end of
/// the stream (Response::stream_ended), or a failure of its own kind: `handshake` (not a 200
/// with text/event-stream), `too_big` (a line over --max-message), `protocol` (data not UTF-8),
/// `closed` (with --reconnect, a stream that ended before any event: opening it again at once
/// would loop as fast as the server answers), or the transport's. -t bounds the wait for an
/// event; -z's end and the stopping run cut it short (no event then, counted as none).
class SseClientBase : public ClientBase, private LongLived {
 public:
  LongLived* long_lived() override { return this; }
  [[nodiscard]] bool is_open() const override { return streaming_; }

  net::awaitable<void> exchange(const PreparedRequest& request, model::Response& response) final;

 protected:
  SseClientBase(const ClientSetup& setup, ThreadContext& thread, model::Protocol protocol)
      : ClientBase(setup, thread, protocol) {}

  /// Opens the stream: connects if needed, sends the request (with `last_event_id()` as
  /// Last-Event-ID when set) and waits for the response's head, which it hands to accept().
  virtual net::awaitable<void> open_stream(const PreparedRequest& request,
                                           model::Response& response) = 0;
  /// Waits for more of the stream's body; the error that ended the wait (none when the
  /// server's end of the stream came).
  virtual net::awaitable<boost::system::error_code> read_more(model::Response& response) = 0;
  /// The server ended the stream's response.
  [[nodiscard]] virtual bool server_ended() const = 0;
  /// The stream's body bytes read and not yet parsed.
  virtual std::string& unparsed() = 0;
  /// The stream is over (the server ended it): what the transport keeps for the next.
  virtual void stream_over() = 0;

  /// The response's head came: true when it opens an event stream (a 200 with
  /// text/event-stream); else `response` fails as `handshake`, its status counted.
  bool accept(int status, bool event_stream, const PreparedRequest& request,
              model::Response& response);

  [[nodiscard]] const std::string& last_event_id() const { return sse_.last_event_id(); }
  /// The wait for an event was cut short (-z's end, the stopping run).
  [[nodiscard]] bool cut() const { return cut_; }
  /// The next exchange opens a stream.
  void forget_stream() { streaming_ = false; }

  /// The stream's request is about to go: a first event is timed from here.
  void opening() { opened_at_ = Clock::now(); }

  void cut_short() override;

 private:
  bool say_goodbye() override;
  bool next_event(model::Response& response);
  void deliver(std::string_view data, model::Response& response);
  void end_stream(model::Response& response);
  net::awaitable<void> wait_to_reconnect(model::Response& response);
  void close_socket() final;
  /// Closes the transport under the pending read (the subclass's close_socket()).
  virtual void interrupt() = 0;

  SseParser sse_{0};
  Clock::time_point opened_at_;
  std::optional<std::uint64_t> resumed_from_;  ///< the Last-Event-ID the stream was opened with
  net::steady_timer* retry_timer_ = nullptr;   ///< wait_to_reconnect()'s, while it waits
  int status_ = 0;                             ///< the stream's status
  bool streaming_ = false;                     ///< a stream is open
  bool first_ = false;                         ///< its next event is its first
  bool waiting_ = false;                       ///< an exchange waits for an event
  bool cut_ = false;                           ///< the stopping run or -z's end cut the wait short
};

/// The head's Content-Type is text/event-stream (parameters after it allowed).
bool is_event_stream(const model::Response& head);

}  // namespace stampede::client
