// An HTTP/2 client connection's protocol state without I/O: one user's streams one after another,
// or many users' at once (-m). The one nghttp2 client session and callback table.
#pragma once

#include <nghttp2/nghttp2.h>

#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/response.hpp"
#include "server/client/classify.hpp"
#include "server/client/h2_common.hpp"
#include "server/client/h2_idle.hpp"
#include "server/client/prepared_request.hpp"

namespace stampede::client {

/// One user's request on a connection (its own or a shared one): what it sends, where its
/// response goes, and how its stream ended. The user's client owns it for the whole exchange;
/// H2Streams keeps it by stream id until the stream closes or the call is withdrawn.
struct H2Call {
  using Clock = std::chrono::steady_clock;

  const Http2Wire* request = nullptr;
  model::Response* response = nullptr;
  bool keep_body = false;
  std::int32_t stream_id = -1;  ///< -1 until submitted
  std::size_t body_sent = 0;
  Clock::time_point submitted;  ///< Use::shared: handed to the session, queueing starts
  Clock::time_point sent;  ///< Use::shared: its HEADERS went out, queueing ends, `waiting` starts
  bool request_sent = false;        ///< its last frame went out
  bool done = false;                ///< the stream closed, was refused, or the connection failed
  boost::system::error_code error;  ///< empty for a complete response
  Phase phase = Phase::read;        ///< where `error` happened, for classify()
  /// Told when `done` turns true (the client's wake-up); called at most once per exchange.
  void (*on_done)(H2Call&) = nullptr;
  /// Read as it arrives (an event stream): the response's HEADERS and each DATA frame also
  /// tell `on_arrival`, and the stream is the call's until it closes (keep_body set: the body
  /// gathers what arrived, which the client takes from it).
  bool streaming = false;
  void (*on_arrival)(H2Call&) = nullptr;
  bool queued = false;  ///< waits in its connection's list of calls to resume
  /// A request that streams (a gRPC client-streaming or bidirectional call): its body goes out
  /// from `outgoing` as the client adds to it (send_more()), `request`'s body unused. The
  /// request's end (END_STREAM) goes once `outgoing_ends` is set and all of it went; until then
  /// a call is withdrawn at its end.
  const std::string* outgoing = nullptr;
  bool outgoing_ends = false;
  /// Each time all of `outgoing` has gone into frames (the flow-control window let it go),
  /// `on_arrival` is told too: a client-streaming call's exchange waits for that. A
  /// bidirectional call's waits for the answer instead, and is not woken for nothing.
  bool tell_when_sent = false;
  void* owner = nullptr;  ///< for on_done
};

/// An nghttp2 client session carrying streams, each an H2Call, found by stream id (our own
/// map rather than nghttp2's stream user data: a request still queued when a GOAWAY comes has
/// no nghttp2 stream yet, only a frame not sent). Requests beyond the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS wait in nghttp2's queue; before the server's SETTINGS arrive,
/// one stream at a time, so that a server allowing fewer than nghttp2's default of 100 never sees
/// more than it allows. Sans-IO, so unit tests drive it with a server session in memory.
class H2Streams {
 public:
  /// Whose connection it is. A user's own connection (HTTP/2 without -m) is counted by its
  /// H2Connection in wire bytes and may be held after the requests (hand_over()); a shared one
  /// counts each stream's frames and times its queueing.
  enum class Use : unsigned char { own, shared };
  /// How the session starts: by our connection preface and SETTINGS, or after a 101 to an h2c
  /// upgrade request, whose HTTP2-Settings were our SETTINGS (upgrade() opens its stream).
  enum class Start : unsigned char { preface, upgraded };

  explicit H2Streams(Use use, Start start = Start::preface);
  ~H2Streams();
  H2Streams(const H2Streams&) = delete;
  H2Streams& operator=(const H2Streams&) = delete;

  /// Opens a stream for `call` (its request, response and keep_body set). False, with
  /// call.error set, when nghttp2 refuses it (no stream ids left, GOAWAY).
  bool submit(H2Call& call);
  /// The server switched to HTTP/2 after `call`'s request went as HTTP/1.1 with
  /// upgrade_settings(): its response comes on stream 1, as submit() would have it. `head`: the
  /// request was a HEAD. False (call.error set) when nghttp2 refuses.
  bool upgrade(H2Call& call, bool head);
  /// The HTTP2-Settings header's value for an h2c upgrade request: our SETTINGS, base64url.
  static std::string upgrade_settings();
  /// A request that streams (H2Call::outgoing) has more to send.
  void send_more(const H2Call& call);
  /// The call gives up (-t): its stream is reset with CANCEL (or, still queued, never sent)
  /// and the session no longer points at it.
  void withdraw(H2Call& call);
  /// Ends every stream's call with `error`, which happened in `phase` (the connection failed);
  /// returns how many.
  std::size_t fail_all(const boost::system::error_code& error, Phase phase);
  /// A call still waiting, if any (to note the connection it opened).
  [[nodiscard]] H2Call* some_call() const {
    return calls_.empty() ? only_ : calls_.begin()->second;
  }

  /// The bytes to write now, valid until the next call; empty when nothing is pending or the
  /// session failed (see error()).
  std::string_view output();
  /// Feeds `n` bytes read from the connection. False on a connection error (see error()).
  bool input(const char* data, std::size_t n);
  /// Ends the connection politely: GOAWAY(NO_ERROR) goes out with the next output().
  void goodbye();

  /// New streams may open here: no GOAWAY either way, stream ids left, no error.
  [[nodiscard]] bool accepting() const;
  /// accepting(), and nghttp2 can still read or write: a user's next request may go here.
  [[nodiscard]] bool reusable() const;
  /// Streams whose calls are still waiting (open or queued).
  [[nodiscard]] std::size_t calls() const { return calls_.size() + (only_ != nullptr ? 1 : 0); }
  /// Streams open on the connection now (their HEADERS sent, not yet closed).
  [[nodiscard]] std::size_t open_streams() const { return open_; }
  /// The most streams open at once so far.
  [[nodiscard]] std::size_t peak_streams() const { return peak_; }
  /// The server's SETTINGS arrived: it speaks HTTP/2.
  [[nodiscard]] bool server_settings() const { return server_settings_; }
  /// The connection failed or broke the protocol (ours or the server's GOAWAY with an error).
  [[nodiscard]] const boost::system::error_code& error() const { return error_; }
  /// nghttp2 has nothing more to read or write: the connection may close.
  [[nodiscard]] bool finished() const;
  /// The server sent GOAWAY: it is ending the connection.
  [[nodiscard]] bool server_goaway() const { return server_goaway_; }

  /// --hold, after the requests (Use::own): the connection goes on without this session.
  /// Returns what takes it over, standing where the session stands in the server's frames, with
  /// what the session still had to write. The session is spent afterwards.
  H2Idle hand_over();

 private:
  friend struct H2StreamCallbacks;

  [[nodiscard]] H2Call* call_of(std::int32_t stream_id) const;
  void begin(H2Call& call);
  void keep(H2Call& call);
  H2Call* forget(std::int32_t stream_id);
  void opened(H2Call& call);
  void end_call(std::int32_t stream_id, const boost::system::error_code& error);

  h2::Session session_;
  std::vector<nghttp2_nv> fields_;  ///< scratch: nghttp2 copies the list, not the strings
  std::string out_;
  std::unordered_map<std::int32_t, H2Call*> calls_;  ///< Use::shared: by stream id
  H2Call* only_ = nullptr;  ///< Use::own: its one call (one stream at a time: no map)
  std::size_t open_ = 0;
  std::size_t peak_ = 0;
  bool shared_;
  bool server_settings_ = false;
  bool server_goaway_ = false;
  boost::system::error_code error_;
  H2Idle frames_;  ///< Use::own: follows the server's frames, for hand_over()
};

}  // namespace stampede::client
