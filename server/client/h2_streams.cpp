// H2Streams: nghttp2's callbacks (the client's one table) route each frame to its stream's call;
// mem_send/mem_recv move the bytes.
#include "server/client/h2_streams.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "server/client/base64.hpp"
#include "server/client/h2_common.hpp"
#include "server/client/h2_error.hpp"

namespace stampede::client {

namespace {

/// Receive windows for each stream and for the connection, wide so that bodies do not wait on
/// a WINDOW_UPDATE a round trip each (nghttp2's default of 64 KiB would make a larger one): on a
/// shared connection h2load's (2^30 - 1), so that many streams' bodies never do; on a user's own
/// 16 MiB, as its upgrade requests have always said (HTTP2-Settings).
constexpr std::int32_t shared_window = (1 << 30) - 1;
constexpr std::int32_t own_window = 16 * 1024 * 1024;
/// Each frame's header, which the frame's length leaves out.
constexpr std::uint64_t frame_header = 9;

bool opens_stream(const nghttp2_frame* frame) {
  return frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST;
}

}  // namespace

/// nghttp2's callbacks, as a friend so they can reach the session's state.
struct H2StreamCallbacks {
  static H2Streams& of(void* user_data) { return *static_cast<H2Streams*>(user_data); }

  static int on_begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& self = of(user_data);
    auto* call = self.call_of(frame->hd.stream_id);
    // A user's own client times `waiting` from its reads.
    if (call != nullptr && self.shared_ && call->response->waiting.count() == 0) {
      call->response->waiting = H2Call::Clock::now() - call->sent;
    }
    return 0;
  }

  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                       std::size_t name_length, const std::uint8_t* value, std::size_t value_length,
                       std::uint8_t, void* user_data) {
    auto* call = of(user_data).call_of(frame->hd.stream_id);
    if (call != nullptr && frame->hd.type == NGHTTP2_HEADERS) {
      h2::note_header(*call->response, h2::view(name, name_length), h2::view(value, value_length));
    }
    return 0;
  }

  static int on_data(nghttp2_session*, std::uint8_t, std::int32_t stream_id,
                     const std::uint8_t* data, std::size_t n, void* user_data) {
    auto* call = of(user_data).call_of(stream_id);
    if (call == nullptr) return 0;
    call->response->body_bytes += n;
    if (call->keep_body) call->response->body.append(h2::view(data, n));
    if (call->streaming) call->on_arrival(*call);
    return 0;
  }

  static int on_stream_close(nghttp2_session*, std::int32_t stream_id, std::uint32_t error_code,
                             void* user_data) {
    // REFUSED_STREAM too for streams a GOAWAY's last stream id leaves out.
    of(user_data).end_call(stream_id, error_code == NGHTTP2_NO_ERROR ? boost::system::error_code{}
                                                                     : h2_peer_error(error_code));
    return 0;
  }

  static int on_frame(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& self = of(user_data);
    if (frame->hd.type == NGHTTP2_SETTINGS) self.server_settings_ = true;
    if (frame->hd.type == NGHTTP2_GOAWAY) self.server_goaway_ = true;
    auto* call = self.call_of(frame->hd.stream_id);
    if (call == nullptr) return 0;
    if (self.shared_) call->response->bytes_received += frame->hd.length + frame_header;
    if (call->streaming && frame->hd.type == NGHTTP2_HEADERS) call->on_arrival(*call);
    return 0;
  }

  static int on_frame_sent(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& self = of(user_data);
    if (auto* call = self.call_of(frame->hd.stream_id)) {
      if (self.shared_) call->response->bytes_sent += frame->hd.length + frame_header;
      if (opens_stream(frame)) self.opened(*call);
      if ((frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) call->request_sent = true;
    }
    // nghttp2 ends the connection with GOAWAY when the server breaks the protocol: the
    // connection fails with that error.
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR &&
        !self.error_) {
      self.error_ = h2_local_error(frame->goaway.error_code);
    }
    return 0;
  }

  /// A request still queued when the session stopped opening streams (a GOAWAY): refused, as
  /// the server would have.
  static int on_frame_not_sent(nghttp2_session*, const nghttp2_frame* frame, int, void* user_data) {
    if (opens_stream(frame)) {
      of(user_data).end_call(frame->hd.stream_id, h2_peer_error(NGHTTP2_REFUSED_STREAM));
    }
    return 0;
  }

  static ssize_t read_body(nghttp2_session*, std::int32_t stream_id, std::uint8_t* buffer,
                           std::size_t length, std::uint32_t* flags, nghttp2_data_source*,
                           void* user_data) {
    auto* call = of(user_data).call_of(stream_id);
    if (call == nullptr) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;  // withdrawn: reset
    if (call->outgoing == nullptr) {
      return static_cast<ssize_t>(
          h2::copy_body(call->request->body, call->body_sent, buffer, length, flags));
    }
    // A streaming request: what was added so far; nothing yet waits for send_more().
    const auto& outgoing = *call->outgoing;
    const auto n = std::min(length, outgoing.size() - call->body_sent);
    if (n == 0 && !call->outgoing_ends) return NGHTTP2_ERR_DEFERRED;
    std::memcpy(buffer, outgoing.data() + call->body_sent, n);
    call->body_sent += n;
    if (call->body_sent == outgoing.size()) {
      if (call->outgoing_ends) *flags |= NGHTTP2_DATA_FLAG_EOF;
      if (n > 0 && call->tell_when_sent) call->on_arrival(*call);
    }
    return static_cast<ssize_t>(n);
  }

  /// One table for every session of the process.
  static const nghttp2_session_callbacks* table() {
    static const auto* callbacks = [] {
      nghttp2_session_callbacks* made = nullptr;
      nghttp2_session_callbacks_new(&made);
      nghttp2_session_callbacks_set_on_begin_headers_callback(made, on_begin_headers);
      nghttp2_session_callbacks_set_on_header_callback(made, on_header);
      nghttp2_session_callbacks_set_on_data_chunk_recv_callback(made, on_data);
      nghttp2_session_callbacks_set_on_stream_close_callback(made, on_stream_close);
      nghttp2_session_callbacks_set_on_frame_recv_callback(made, on_frame);
      nghttp2_session_callbacks_set_on_frame_send_callback(made, on_frame_sent);
      nghttp2_session_callbacks_set_on_frame_not_send_callback(made, on_frame_not_sent);
      return made;
    }();
    return callbacks;
  }
};

H2Streams::H2Streams(Use use, Start start) : shared_(use == Use::shared) {
  nghttp2_option* option = nullptr;
  nghttp2_option_new(&option);
  // Until the server's SETTINGS say how many streams it takes, one at a time.
  nghttp2_option_set_peer_max_concurrent_streams(option, 1);
  nghttp2_session* made = nullptr;
  nghttp2_session_client_new2(&made, H2StreamCallbacks::table(), this, option);
  nghttp2_option_del(option);
  session_.reset(made);
  const auto window = shared_ ? shared_window : own_window;
  if (start == Start::preface) {
    h2::open_windows(made, window);
  } else {  // our SETTINGS went in the upgrade request
    h2::open_connection_window(made, window);
  }
}

H2Streams::~H2Streams() = default;

/// A call's state for a new stream. A redirect hop's response must not keep the previous
/// one's headers.
void H2Streams::begin(H2Call& call) {
  call.response->location.clear();
  call.response->content_encoding.clear();
  call.body_sent = 0;
  call.sent = {};
  call.request_sent = call.done = false;
  call.error.clear();
  call.phase = Phase::read;
  if (shared_) call.submitted = H2Call::Clock::now();
}

bool H2Streams::submit(H2Call& call) {
  begin(call);
  fields_.clear();
  for (const auto& name_value : call.request->headers) fields_.push_back(h2::field(name_value));
  nghttp2_data_provider body{};
  body.read_callback = H2StreamCallbacks::read_body;
  const auto* provider = call.request->body.empty() && call.outgoing == nullptr ? nullptr : &body;
  call.stream_id = nghttp2_submit_request(session_.get(), nullptr, fields_.data(), fields_.size(),
                                          provider, nullptr);
  if (call.stream_id < 0) {
    call.error = h2_library_error(call.stream_id);
    return false;
  }
  keep(call);
  return true;
}

bool H2Streams::upgrade(H2Call& call, bool head) {
  begin(call);
  // The 101's status and headers are not the response's.
  call.response->status = 0;
  call.response->headers.clear();
  call.request_sent = true;  // as HTTP/1.1, before the switch
  call.stream_id = 1;        // RFC 7540 3.2: the upgrade request is stream 1
  const auto payload = h2::settings_payload(own_window);  // only a user's own is upgraded
  const int result = nghttp2_session_upgrade2(session_.get(),
                                              reinterpret_cast<const std::uint8_t*>(payload.data()),
                                              payload.size(), head ? 1 : 0, nullptr);
  if (result != 0) {
    call.error = h2_library_error(result);
    return false;
  }
  keep(call);
  return true;
}

std::string H2Streams::upgrade_settings() {
  return base64url(h2::settings_payload(own_window));  // RFC 7540 3.2.1
}

void H2Streams::send_more(const H2Call& call) {
  nghttp2_session_resume_data(session_.get(), call.stream_id);  // an error: not deferred yet
}

void H2Streams::withdraw(H2Call& call) {
  if (forget(call.stream_id) == nullptr) return;
  if (call.sent != H2Call::Clock::time_point{}) --open_;
  nghttp2_submit_rst_stream(session_.get(), NGHTTP2_FLAG_NONE, call.stream_id, NGHTTP2_CANCEL);
}

std::size_t H2Streams::fail_all(const boost::system::error_code& error, Phase phase) {
  std::vector<H2Call*> failed;
  for (const auto& [id, call] : std::exchange(calls_, {})) failed.push_back(call);
  if (auto* call = std::exchange(only_, nullptr)) failed.push_back(call);
  for (auto* call : failed) {
    call->done = true;
    call->error = error;
    // A request whose last frame went out fails while its response is awaited.
    call->phase = phase == Phase::write && call->request_sent ? Phase::read : phase;
    if (call->on_done != nullptr) call->on_done(*call);
  }
  open_ = 0;
  return failed.size();
}

std::string_view H2Streams::output() { return h2::drain_output(session_.get(), out_, error_); }

bool H2Streams::input(const char* data, std::size_t n) {
  if (!shared_) frames_.follow(data, n);
  return h2::feed_input(session_.get(), data, n, error_);
}

void H2Streams::goodbye() { nghttp2_session_terminate_session(session_.get(), NGHTTP2_NO_ERROR); }

bool H2Streams::accepting() const {
  return !error_ && nghttp2_session_check_request_allowed(session_.get()) != 0;
}

bool H2Streams::reusable() const { return accepting() && !finished(); }

H2Idle H2Streams::hand_over() {
  H2Idle idle = std::move(frames_);
  idle.take_over(output(), server_goaway_);
  return idle;
}

bool H2Streams::finished() const {
  return nghttp2_session_want_read(session_.get()) == 0 &&
         nghttp2_session_want_write(session_.get()) == 0;
}

H2Call* H2Streams::call_of(std::int32_t stream_id) const {
  if (!shared_) return only_ != nullptr && only_->stream_id == stream_id ? only_ : nullptr;
  const auto found = calls_.find(stream_id);
  return found == calls_.end() ? nullptr : found->second;
}

void H2Streams::keep(H2Call& call) {
  if (shared_) {
    calls_.emplace(call.stream_id, &call);
  } else {
    only_ = &call;
  }
}

H2Call* H2Streams::forget(std::int32_t stream_id) {
  auto* call = call_of(stream_id);
  if (call == nullptr) return nullptr;
  if (shared_) {
    calls_.erase(stream_id);
  } else {
    only_ = nullptr;
  }
  return call;
}

/// A stream's HEADERS went out: its queueing ends, and it counts among the open streams. A
/// user's own connection, one stream at a time, counts and times none of this.
void H2Streams::opened(H2Call& call) {
  if (!shared_) return;
  call.sent = H2Call::Clock::now();
  peak_ = std::max(peak_, ++open_);
  call.response->queueing = call.sent - call.submitted;
  call.response->streams_open = static_cast<std::uint32_t>(open_);
}

void H2Streams::end_call(std::int32_t stream_id, const boost::system::error_code& error) {
  auto* ended = forget(stream_id);
  if (ended == nullptr) return;
  H2Call& call = *ended;
  if (call.sent != H2Call::Clock::time_point{}) --open_;
  call.done = true;
  // A stream refused because we ended the connection (the server broke the protocol) fails
  // as the connection did.
  call.error = error_ && error == h2_refused() ? error_ : error;
  if (call.on_done != nullptr) call.on_done(call);
}

}  // namespace stampede::client
