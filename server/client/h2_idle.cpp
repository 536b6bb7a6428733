// H2Idle: an HTTP/2 frame splitter and the few answers a connection without streams gives.
#include "server/client/h2_idle.hpp"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "server/client/h2_error.hpp"

namespace stampede::client {

namespace {

/// The largest payload a server may send us: SETTINGS_MAX_FRAME_SIZE, which we leave at its
/// initial value (RFC 9113 6.5.2).
constexpr std::uint32_t max_frame_payload = 16384;

}  // namespace

void H2Idle::take_over(std::string_view pending, bool server_goaway) {
  out_.assign(pending);
  server_goaway_ = server_goaway;
}

bool H2Idle::read(const char* data, std::size_t n, bool act) {
  while (n > 0) {
    if (header_read_ < header_size) {
      const auto k = std::min<std::size_t>(header_size - header_read_, n);
      std::memcpy(header_.data() + header_read_, data, k);
      header_read_ += static_cast<std::uint8_t>(k);
      data += k;
      n -= k;
      if (header_read_ < header_size) return true;
      left_ = (std::uint32_t{header_[0]} << 16) | (std::uint32_t{header_[1]} << 8) | header_[2];
      payload_read_ = 0;
      if (act && !allowed()) return false;
    } else {
      const auto k = std::min<std::size_t>(left_, n);
      const auto kept = std::min<std::size_t>(k, payload_.size() - payload_read_);
      std::memcpy(payload_.data() + payload_read_, data, kept);
      payload_read_ += static_cast<std::uint8_t>(kept);
      data += k;
      n -= k;
      left_ -= static_cast<std::uint32_t>(k);
    }
    if (left_ > 0) continue;
    if (act) on_frame();
    header_read_ = 0;
  }
  return true;
}

bool H2Idle::allowed() {
  if (left_ > max_frame_payload) {
    error_ = h2_library_error(NGHTTP2_ERR_FRAME_SIZE_ERROR);
    return false;
  }
  // A header block needs the HPACK state we dropped; no stream can carry one here anyway.
  if (type() == NGHTTP2_HEADERS || type() == NGHTTP2_PUSH_PROMISE ||
      type() == NGHTTP2_CONTINUATION) {
    error_ = h2_library_error(NGHTTP2_ERR_PROTO);
    return false;
  }
  return true;
}

void H2Idle::on_frame() {
  const bool ack = (flags() & NGHTTP2_FLAG_ACK) != 0;
  switch (type()) {
    case NGHTTP2_SETTINGS:
      // Nothing the server may set changes what this connection still sends.
      if (!ack) append_frame(NGHTTP2_SETTINGS, NGHTTP2_FLAG_ACK, {});
      break;
    case NGHTTP2_PING:
      if (ack) {
        ping_unanswered_ = false;
      } else {
        append_frame(NGHTTP2_PING, NGHTTP2_FLAG_ACK, {payload_.data(), payload_read_});
      }
      break;
    case NGHTTP2_GOAWAY:
      server_goaway_ = true;
      break;
    default:  // DATA, RST_STREAM, WINDOW_UPDATE, PRIORITY of closed streams; extensions
      break;
  }
}

void H2Idle::ping() {
  append_frame(NGHTTP2_PING, NGHTTP2_FLAG_NONE, std::string_view("\0\0\0\0\0\0\0\0", 8));
  ping_unanswered_ = true;
}

void H2Idle::goodbye() {
  // Last stream id 0, error code NO_ERROR.
  append_frame(NGHTTP2_GOAWAY, NGHTTP2_FLAG_NONE, std::string_view("\0\0\0\0\0\0\0\0", 8));
}

void H2Idle::append_frame(std::uint8_t type, std::uint8_t flags, std::string_view payload) {
  const auto n = payload.size();
  const char header[header_size] = {static_cast<char>(n >> 16),
                                    static_cast<char>(n >> 8),
                                    static_cast<char>(n),
                                    static_cast<char>(type),
                                    static_cast<char>(flags),
                                    0,
                                    0,
                                    0,
                                    0};  // stream 0: the connection
  out_.append(header, header_size);
  out_.append(payload);
}

}  // namespace stampede::client
