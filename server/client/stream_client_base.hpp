// What a reader of responses as streams does over any HTTP version: an exchange is the stream's
// next unit (an event, a gRPC message, a chunk), the stream opened again when the server ends it
// and --reconnect asks; the units are StreamUnits', the transport (HTTP/1.1 or an HTTP/2
// stream) the subclass's.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>
#include <memory>
#include <string>

#include "server/client/client_base.hpp"
#include "server/client/stream_units.hpp"

namespace stampede::client {

/// A user's stream. Each exchange returns one unit (its data the response's body, its wait the
/// latency; a stream's first unit is timed from the stream's request), or the end of the
/// stream (Response::stream_ended), or a failure: the units' own (an event stream's
/// `handshake`, `too_big`, `protocol`), `closed` (with --reconnect, a stream that ended before
/// any unit: opening it again at once would loop as fast as the server answers), or the
/// transport's. -t bounds the wait for a unit; -z's end and the stopping run cut it short (no
/// unit then, counted as none).
class StreamClientBase : public ClientBase, private LongLived {
 public:
  LongLived* long_lived() override { return this; }
  [[nodiscard]] bool is_open() const override { return streaming_; }

  net::awaitable<void> exchange(const PreparedRequest& request, model::Response& response) final;

 protected:
  StreamClientBase(const ClientSetup& setup, ThreadContext& thread, model::Protocol protocol);

  /// Opens the stream: connects if needed, sends the request (with units().resume_header()
  /// when it names one) and waits for the response's head, which it hands to accept().
  virtual net::awaitable<void> open_stream(const PreparedRequest& request,
                                           model::Response& response) = 0;
  /// Waits for more of the stream's body; the error that ended the wait (none when the
  /// server's end of the stream came).
  virtual net::awaitable<boost::system::error_code> read_more(model::Response& response) = 0;
  /// The server ended the stream's response.
  [[nodiscard]] virtual bool server_ended() const = 0;
  /// The stream's head (and, once it ended, its trailers).
  [[nodiscard]] virtual const model::Response& head() const = 0;
  /// The stream's body bytes read and not yet parsed.
  virtual std::string& unparsed() = 0;
  /// The stream is over (the server ended it): what the transport keeps for the next.
  virtual void stream_over() = 0;
  /// An exchange on a stream already open starts: a stream whose request streams too (a gRPC
  /// bidirectional call) sends the exchange's message on it; a stream opened by the exchange
  /// sent it in its request.
  virtual void send_unit(const PreparedRequest& /*request*/) {}

  /// The response's head came: true when it opens a stream (see StreamUnits::open()).
  bool accept(const PreparedRequest& request, model::Response& response);
  /// A stream opens before its head comes (a call whose answer comes at its end).
  void open_unheard(model::Response& response);
  /// The exchange has its unit: counted as the stream's first or next, timed.
  void count_unit(model::Response& response);

  /// The stream is a call whose request streams and whose one answer comes at its end (gRPC
  /// client streaming): each exchange sends a unit rather than reads one, and upload_step()
  /// says when it is over instead of StreamUnits.
  [[nodiscard]] virtual bool uploads() const { return false; }
  /// With uploads(): true when the exchange is over (its unit went out, or the call's answer
  /// came, or the call failed); else read_more() waits for the call to move on.
  virtual bool upload_step(model::Response& /*response*/) { return false; }

  [[nodiscard]] const StreamUnits& units() const { return *units_; }
  /// The wait for a unit was cut short (-z's end, the stopping run).
  [[nodiscard]] bool cut() const { return cut_; }
  /// The next exchange opens a stream.
  void forget_stream() { streaming_ = false; }

  /// The stream's request is about to go: a first unit is timed from here.
  void opening() { opened_at_ = Clock::now(); }

  void cut_short() override;

 private:
  bool say_goodbye() override;
  bool next_unit(model::Response& response);
  void end_stream(model::Response& response);
  net::awaitable<void> wait_to_reconnect(model::Response& response);
  void close_socket() final;
  /// Closes the transport under the pending read (the subclass's close_socket()).
  virtual void interrupt() = 0;

  std::unique_ptr<StreamUnits> units_;
  Clock::time_point opened_at_;
  net::steady_timer* retry_timer_ = nullptr;  ///< wait_to_reconnect()'s, while it waits
  bool streaming_ = false;                    ///< a stream is open
  bool first_ = false;                        ///< its next unit is its first
  bool waiting_ = false;                      ///< an exchange waits for a unit
  bool cut_ = false;                          ///< the stopping run or -z's end cut the wait short
};

}  // namespace stampede::client
