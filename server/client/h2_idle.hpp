// A held HTTP/2 connection's frames once nghttp2's session is gone: PINGs, SETTINGS and GOAWAY
// by hand, so that a held connection costs bytes instead of a session's 25 KiB.
#pragma once

#include <array>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace stampede::client {

/// An HTTP/2 connection with no stream open and none to come (--hold, after the requests):
/// what such a connection may still carry needs no HPACK state, flow control or stream table,
/// so nghttp2's session (about 25 KiB: its 16 KiB frame buffer, a 4 KiB stream map, two HPACK
/// ring buffers; no nghttp2 option shrinks them) is dropped and this, a few dozen bytes, takes
/// the connection over. It answers the server's PING and SETTINGS, notes the
/// ACK of our PING and the server's GOAWAY, skips what concerns streams (DATA, RST_STREAM,
/// WINDOW_UPDATE, PRIORITY, extensions), and refuses a header block, which a connection with
/// no stream and push disabled must not get. Sans-IO, as H2Streams is.
///
/// While the session runs, follow() sees the same bytes, so that the take-over starts at the
/// frame boundary where the session stands, even in the middle of a frame.
class H2Idle {
 public:
  /// The session read these bytes: only the frame boundaries are noted.
  void follow(const char* data, std::size_t n) { read(data, n, false); }

  /// The session is gone: `pending` is what it still had to write (a SETTINGS ACK, ...), and
  /// `server_goaway` whether the server had said GOAWAY.
  void take_over(std::string_view pending, bool server_goaway);

  /// Takes `n` bytes read from the held connection, answering what asks for an answer (into
  /// the output). False once the server broke the protocol (see error()).
  bool input(const char* data, std::size_t n) { return read(data, n, true); }

  /// The frames to write now, handed to the writer (so that more can queue meanwhile).
  std::string take_output() { return std::exchange(out_, {}); }
  [[nodiscard]] bool has_output() const { return !out_.empty(); }

  /// --ping: queues a PING; its ACK clears ping_unanswered().
  void ping();
  [[nodiscard]] bool ping_unanswered() const { return ping_unanswered_; }
  /// The server sent GOAWAY: it is ending the connection.
  [[nodiscard]] bool server_goaway() const { return server_goaway_; }
  /// Our goodbye: queues GOAWAY(NO_ERROR), last stream 0 (we refuse pushes: the server opened
  /// none), as nghttp2_session_terminate_session() would.
  void goodbye();
  /// Why input() refused the connection.
  [[nodiscard]] const boost::system::error_code& error() const { return error_; }

 private:
  static constexpr std::size_t header_size = 9;

  /// Splits `data` into frames; with `act`, each whole frame is taken (on_frame()).
  bool read(const char* data, std::size_t n, bool act);
  /// A frame's header is whole: false if a held connection cannot take such a frame.
  bool allowed();
  void on_frame();
  void append_frame(std::uint8_t type, std::uint8_t flags, std::string_view payload);
  [[nodiscard]] std::uint8_t type() const { return header_[3]; }
  [[nodiscard]] std::uint8_t flags() const { return header_[4]; }

  std::array<std::uint8_t, header_size> header_{};
  std::array<char, 8> payload_{};  ///< a PING's opaque data: the first 8 bytes of a payload
  std::uint32_t left_ = 0;         ///< payload bytes of the current frame still to come
  std::uint8_t header_read_ = 0;   ///< header bytes of the current frame read so far
  std::uint8_t payload_read_ = 0;  ///< bytes in payload_
  bool ping_unanswered_ = false;
  bool server_goaway_ = false;
  std::string out_;
  boost::system::error_code error_;
};

}  // namespace stampede::client
