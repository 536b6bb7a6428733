// One HTTP/2 connection's protocol state without I/O: the client feeds it bytes and writes its
// output.
#pragma once

#include <nghttp2/nghttp2.h>

#include <boost/system/error_code.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/response.hpp"
#include "server/client/h2_common.hpp"
#include "server/client/h2_idle.hpp"
#include "server/client/prepared_request.hpp"

namespace stampede::client {

/// An nghttp2 client session carrying one stream at a time (a user's loop is request then
/// response). Sans-IO, so unit tests can drive it with a server session in memory.
class H2Session {
 public:
  /// How the session starts: by our connection preface and SETTINGS, or after a 101 to an h2c
  /// upgrade request, whose HTTP2-Settings were our SETTINGS (upgrade() opens its stream).
  enum class Start : unsigned char { preface, upgraded };

  /// A session whose first output is the connection preface, then our SETTINGS unless
  /// `upgraded` (nghttp2 takes those from upgrade()).
  explicit H2Session(Start start = Start::preface);
  ~H2Session();
  H2Session(const H2Session&) = delete;
  H2Session& operator=(const H2Session&) = delete;

  /// Opens a stream for `request`; its status, headers and DATA go to `response` (the body
  /// only when `keep_body`). Both must outlive the stream. False when nghttp2 refuses it.
  bool submit(const Http2Wire& request, model::Response& response, bool keep_body);

  /// The server switched to HTTP/2 after `request`'s HTTP/1.1 form, sent with
  /// upgrade_settings(): its response comes on stream 1, as submit() would have it. `head`: the
  /// request was a HEAD. False when nghttp2 refuses (see error()).
  bool upgrade(const Http2Wire& request, model::Response& response, bool keep_body, bool head);

  /// The HTTP2-Settings header's value for an h2c upgrade request: our SETTINGS, base64url.
  static std::string upgrade_settings();

  /// The bytes to write now (preface, HEADERS, DATA, SETTINGS ACK, WINDOW_UPDATE, ...), valid
  /// until the next call. Empty when nothing is pending or the session failed (see error()).
  std::string_view output();

  /// Feeds `n` bytes read from the connection. False on a connection error (see error()).
  bool input(const char* data, std::size_t n);

  /// The current stream has ended: complete, reset or refused.
  [[nodiscard]] bool stream_closed() const { return closed_; }
  /// The stream was reset, or the connection failed (or broke the protocol, and we ended it);
  /// empty for a complete response.
  [[nodiscard]] const boost::system::error_code& error() const { return error_; }
  /// The server did not process the stream (REFUSED_STREAM, or beyond GOAWAY's last stream
  /// id): it may be sent again on a new connection whatever its method (RFC 9113 8.7).
  [[nodiscard]] bool refused() const { return refused_; }
  /// The request's last frame (END_STREAM) has gone into output().
  [[nodiscard]] bool request_sent() const { return request_sent_; }
  /// The server's SETTINGS arrived: it speaks HTTP/2 (its connection preface, RFC 9113 3.4).
  [[nodiscard]] bool server_settings() const { return server_settings_; }
  /// No GOAWAY came, stream ids remain, and nghttp2 can still read or write: the next request
  /// may use this connection.
  [[nodiscard]] bool reusable() const;

  /// The server sent GOAWAY: it is ending the connection.
  [[nodiscard]] bool server_goaway() const { return server_goaway_; }

  /// --hold, after the requests: the connection goes on without this session. Returns what
  /// takes it over, standing where the session stands in the server's frames, with what the
  /// session still had to write. The session is spent afterwards.
  H2Idle hand_over();

 private:
  friend struct H2Callbacks;

  /// A new stream's state: what it sends, where its response goes.
  void start_stream(const Http2Wire& request, model::Response& response, bool keep_body);

  h2::Session session_;
  std::vector<nghttp2_nv> fields_;  ///< the header list submitted last, pointing into a request
  std::string out_;
  const Http2Wire* request_ = nullptr;
  model::Response* response_ = nullptr;
  std::size_t body_sent_ = 0;
  std::int32_t stream_id_ = -1;
  bool keep_body_ = false;
  bool closed_ = false;
  bool refused_ = false;
  bool server_settings_ = false;
  bool request_sent_ = false;
  bool server_goaway_ = false;
  boost::system::error_code error_;
  H2Idle frames_;  ///< follows the server's frames, for hand_over()
};

}  // namespace stampede::client
