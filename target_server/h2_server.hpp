// The target server's HTTP/2 without I/O: nghttp2's server session answering the routes and gRPC.
#pragma once

#include <nghttp2/nghttp2.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "target_server/admission.hpp"
#include "target_server/grpc_methods.hpp"
#include "target_server/routes.hpp"

namespace stampede::target_server {

/// An HTTP/1.1 request that asked to go on as HTTP/2 ("Upgrade: h2c"): it becomes stream 1.
struct H2cUpgrade {
  std::string settings;  ///< its HTTP2-Settings, decoded: a SETTINGS frame's payload
  Route route;           ///< what it asked for
  bool head = false;     ///< a HEAD request
};

/// HTTP2-Settings' value (base64url, RFC 7540 3.2.1) decoded; nothing if it is not base64url
/// of a whole number of settings (6 bytes each), or longer than any client sends.
std::optional<std::string> decode_h2_settings(std::string_view base64url);

/// A stream whose answer waits (/delay/{ms}), or whose next pieces are due later (/sse,
/// /trickle, gRPC's Repeat): the I/O side calls resume() after `delay`, counted from when the
/// request came or, for the stream's next pieces, from when the last resume() was due (a fixed
/// schedule: a late wake-up does not delay the pieces after it).
struct DelayedStream {
  std::int32_t stream_id = 0;
  std::chrono::milliseconds delay{0};
};

struct H2Stream;

/// One HTTP/2 connection's protocol state: nghttp2 reads the client's frames, each request is
/// answered as its HTTP/1.1 twin is (same status, body, Server, Content-Type, Content-Length;
/// a paced body's pieces in DATA frames when due; request bodies are discarded), and gRPC
/// requests (content-type application/grpc) to the methods of grpc_methods.hpp. Sans-I/O, so tests
/// can drive it with an nghttp2 client session in memory.
///
/// Under an InFlightLimit, a request (not a gRPC call) counts from its last frame until its
/// answer is submitted, a delayed one until resume(), a paced one (/sse, /trickle) until its
/// stream closes (each at most until its reset, or the session's end); one arriving with the
/// limit full is answered 503 at once (busy_route), the connection and its other streams going
/// on.
class H2Server {
 public:
  /// A session whose first output is our SETTINGS: `max_streams` concurrent streams, 16 MiB
  /// flow-control windows (a request body never waits for a WINDOW_UPDATE round trip). Its
  /// requests count under `in_flight`, shared with other connections; null: no limit.
  explicit H2Server(std::uint32_t max_streams, InFlightLimit* in_flight = nullptr);
  ~H2Server();
  H2Server(const H2Server&) = delete;
  H2Server& operator=(const H2Server&) = delete;

  /// Continues a connection upgraded by `request` (the 101 was sent): stream 1 is that
  /// request, answered (or delayed) at once. Call before input(). False if nghttp2 refuses the
  /// settings; the connection is then to be closed.
  bool upgrade(const H2cUpgrade& request);

  /// Feeds bytes read from the connection. False on a connection error: write what output()
  /// still has (a GOAWAY, perhaps), then close.
  bool input(const char* data, std::size_t size);

  /// The bytes to write next, about 64 KiB at most (a large body comes out over several
  /// calls), valid until the next call; empty when nothing can be sent now.
  std::string_view output();

  /// True if there is something to write (output() is not empty).
  [[nodiscard]] bool wants_write() const;

  /// True once neither side has anything more to say (after GOAWAY, or a connection error).
  [[nodiscard]] bool finished() const;

  /// The streams that began to wait since the last call.
  std::vector<DelayedStream> take_delayed() { return std::exchange(delayed_, {}); }

  /// Answers a stream that waited, or sends a paced stream's pieces now due (and asks, through
  /// take_delayed(), to be resumed for the next); nothing if it was reset or closed meanwhile.
  void resume(std::int32_t stream_id);

 private:
  struct Deleter {
    void operator()(nghttp2_session* session) const;
  };
  friend struct H2ServerCallbacks;

  /// A stream's state, from the spares if there is one.
  H2Stream* open_stream();
  void close_stream(H2Stream* stream);
  /// Answers the request of `stream_id`, complete now: at once, or once it has waited.
  void answer(std::int32_t stream_id, H2Stream& stream);
  /// Submits the answer of a request admitted (or refused: busy_route), ending its time in flight.
  void answer_route(std::int32_t stream_id, H2Stream& stream);
  /// Submits the head of /sse or /trickle, and its first pieces; the stream keeps its place in
  /// flight until it ends.
  void answer_paced(std::int32_t stream_id, H2Stream& stream);
  /// Makes a paced stream's pieces up to `step` due, and asks to be resumed for the next ones.
  void take_step(std::int32_t stream_id, H2Stream& stream, std::uint64_t step);
  /// A gRPC call whose request ended (or, for Chat, began): its answer, or its trailers.
  void answer_grpc(std::int32_t stream_id, H2Stream& stream);
  /// Chat's head, then each request byte back as it comes (on_data resumes it).
  void answer_chat(std::int32_t stream_id, H2Stream& stream);
  /// Repeat's answers: the first now, the others x-interval-ms apart (resume()).
  void answer_repeat(std::int32_t stream_id, H2Stream& stream);
  /// A whole answer of `stream.body`'s bytes (`copies` times), then the trailers.
  void answer_grpc_body(std::int32_t stream_id, H2Stream& stream, std::uint64_t copies);
  /// A gRPC answer without a message: HEADERS with the status, ending the stream.
  void grpc_trailers_only(std::int32_t stream_id, unsigned status, std::string_view message);
  /// Submits a response of `fields`; with a DATA source in `body` unless it is null.
  void submit(std::int32_t stream_id, std::span<const nghttp2_nv> fields, H2Stream* body);

  // The streams' states first: the session, which points at them, goes before them.
  std::vector<std::unique_ptr<H2Stream>> streams_;  ///< every stream state made, live or spare
  std::vector<H2Stream*> spare_;                    ///< those of closed streams, to reuse
  std::unique_ptr<nghttp2_session, Deleter> session_;
  std::vector<DelayedStream> delayed_;
  InFlightLimit* in_flight_;
  std::string out_;
  bool failed_ = false;
};

}  // namespace stampede::target_server
