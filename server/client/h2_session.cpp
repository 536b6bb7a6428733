// H2Session: nghttp2's callbacks fill the Response; mem_send/mem_recv move the bytes.
#include "server/client/h2_session.hpp"

#include <utility>

#include "server/client/base64.hpp"
#include "server/client/h2_common.hpp"
#include "server/client/h2_error.hpp"

namespace stampede::client {

namespace {

/// Receive windows for a stream and for the connection. nghttp2's default (64 KiB) makes a
/// larger body wait a round trip for each WINDOW_UPDATE; h2load opens its windows wide too.
constexpr std::int32_t session_window_size = 16 * 1024 * 1024;

}  // namespace

/// nghttp2's callbacks, as a friend so they can reach the session's state.
struct H2Callbacks {
  static H2Session& of(void* user_data) { return *static_cast<H2Session*>(user_data); }

  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                       std::size_t name_length, const std::uint8_t* value, std::size_t value_length,
                       std::uint8_t, void* user_data) {
    auto& self = of(user_data);
    if (frame->hd.type != NGHTTP2_HEADERS || frame->hd.stream_id != self.stream_id_) return 0;
    h2::note_header(*self.response_, h2::view(name, name_length), h2::view(value, value_length));
    return 0;
  }

  static int on_data(nghttp2_session*, std::uint8_t, std::int32_t stream_id,
                     const std::uint8_t* data, std::size_t n, void* user_data) {
    auto& self = of(user_data);
    if (stream_id != self.stream_id_) return 0;
    self.response_->body_bytes += n;
    if (self.keep_body_) self.response_->body.append(h2::view(data, n));
    return 0;
  }

  static int on_stream_close(nghttp2_session*, std::int32_t stream_id, std::uint32_t error_code,
                             void* user_data) {
    auto& self = of(user_data);
    if (stream_id != self.stream_id_) return 0;
    self.closed_ = true;
    // nghttp2 also reports REFUSED_STREAM for streams a GOAWAY's last stream id leaves out.
    self.refused_ = error_code == NGHTTP2_REFUSED_STREAM;
    if (error_code != NGHTTP2_NO_ERROR) self.error_ = h2_peer_error(error_code);
    return 0;
  }

  static int on_frame(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& self = of(user_data);
    if (frame->hd.type == NGHTTP2_SETTINGS) self.server_settings_ = true;
    if (frame->hd.type == NGHTTP2_GOAWAY) self.server_goaway_ = true;
    return 0;
  }

  static int on_frame_sent(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& self = of(user_data);
    const bool ends_request =
        (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    if (ends_request && frame->hd.stream_id == self.stream_id_) self.request_sent_ = true;
    // nghttp2 ends the connection with GOAWAY when the server breaks the protocol (a frame too
    // large, a bad HPACK block): our stream will never close, so the exchange fails here.
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR &&
        !self.error_) {
      self.error_ = h2_local_error(frame->goaway.error_code);
    }
    return 0;
  }

  static ssize_t read_body(nghttp2_session*, std::int32_t, std::uint8_t* buffer, std::size_t length,
                           std::uint32_t* flags, nghttp2_data_source*, void* user_data) {
    auto& self = of(user_data);
    return static_cast<ssize_t>(
        h2::copy_body(self.request_->body, self.body_sent_, buffer, length, flags));
  }

  /// One table for every session of the process.
  static const nghttp2_session_callbacks* table() {
    static const auto* callbacks = [] {
      nghttp2_session_callbacks* made = nullptr;
      nghttp2_session_callbacks_new(&made);
      nghttp2_session_callbacks_set_on_header_callback(made, on_header);
      nghttp2_session_callbacks_set_on_data_chunk_recv_callback(made, on_data);
      nghttp2_session_callbacks_set_on_stream_close_callback(made, on_stream_close);
      nghttp2_session_callbacks_set_on_frame_recv_callback(made, on_frame);
      nghttp2_session_callbacks_set_on_frame_send_callback(made, on_frame_sent);
      return made;
    }();
    return callbacks;
  }
};

H2Session::H2Session(Start start) {
  nghttp2_session* made = nullptr;
  nghttp2_session_client_new(&made, H2Callbacks::table(), this);
  session_.reset(made);
  if (start == Start::preface) {
    h2::open_windows(made, session_window_size);
  } else {
    h2::open_connection_window(made, session_window_size);
  }
}

H2Session::~H2Session() = default;

void H2Session::start_stream(const Http2Wire& request, model::Response& response, bool keep_body) {
  request_ = &request;
  response_ = &response;
  keep_body_ = keep_body;
  body_sent_ = 0;
  closed_ = refused_ = request_sent_ = false;
  // A redirect hop's response must not keep the previous one's headers.
  response.location.clear();
  response.content_encoding.clear();
  error_.clear();
}

bool H2Session::upgrade(const Http2Wire& request, model::Response& response, bool keep_body,
                        bool head) {
  start_stream(request, response, keep_body);
  // The 101's status and headers are not the response's.
  response.status = 0;
  response.headers.clear();
  request_sent_ = true;  // as HTTP/1.1, before the switch
  stream_id_ = 1;        // RFC 7540 3.2: the upgrade request is stream 1
  const auto payload = h2::settings_payload(session_window_size);
  const int result = nghttp2_session_upgrade2(session_.get(),
                                              reinterpret_cast<const std::uint8_t*>(payload.data()),
                                              payload.size(), head ? 1 : 0, nullptr);
  if (result != 0) error_ = h2_library_error(result);
  return result == 0;
}

std::string H2Session::upgrade_settings() {
  return base64url(h2::settings_payload(session_window_size));  // RFC 7540 3.2.1
}

bool H2Session::submit(const Http2Wire& request, model::Response& response, bool keep_body) {
  start_stream(request, response, keep_body);
  fields_.clear();
  for (const auto& name_value : request.headers) fields_.push_back(h2::field(name_value));
  nghttp2_data_provider body{};
  body.read_callback = H2Callbacks::read_body;
  const auto* provider = request.body.empty() ? nullptr : &body;
  stream_id_ = nghttp2_submit_request(session_.get(), nullptr, fields_.data(), fields_.size(),
                                      provider, nullptr);
  if (stream_id_ < 0) error_ = h2_library_error(stream_id_);
  return stream_id_ >= 0;
}

std::string_view H2Session::output() { return h2::drain_output(session_.get(), out_, error_); }

bool H2Session::input(const char* data, std::size_t n) {
  frames_.follow(data, n);
  return h2::feed_input(session_.get(), data, n, error_);
}

bool H2Session::reusable() const {
  // nghttp2 allows no new stream after a GOAWAY either way, or once stream ids run out.
  return !error_ && nghttp2_session_check_request_allowed(session_.get()) != 0 &&
         (nghttp2_session_want_read(session_.get()) != 0 ||
          nghttp2_session_want_write(session_.get()) != 0);
}

H2Idle H2Session::hand_over() {
  H2Idle idle = std::move(frames_);
  idle.take_over(output(), server_goaway_);
  return idle;
}

}  // namespace stampede::client
