// Test helper: an nghttp2 client session in memory, to drive H2Server with or without sockets.
#pragma once

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede::target_server {

/// What the client saw of one stream.
struct H2Result {
  std::map<std::string, std::string> headers;   ///< the response's fields, :status among them
  std::map<std::string, std::string> trailers;  ///< a second header block's fields
  std::string body;
  bool closed = false;
  std::uint32_t error_code = 0;  ///< RST_STREAM's code; 0 for a complete response
  int data_frames = 0;
  std::vector<std::chrono::steady_clock::time_point> data_at;  ///< when each DATA frame came
  std::vector<std::size_t> data_ends;  ///< the body's size once each DATA frame came
  std::chrono::steady_clock::time_point closed_at;
};

/// An nghttp2 client session: submit requests, move bytes with output() and input(), read
/// each stream's H2Result.
class H2Client {
 public:
  /// A session whose first output is the connection preface and our SETTINGS (push off,
  /// 16 MiB windows).
  H2Client() { make(); }

  ~H2Client() { nghttp2_session_del(session_); }
  H2Client(const H2Client&) = delete;
  H2Client& operator=(const H2Client&) = delete;

  /// The payload of our SETTINGS frame, as an upgrade request carries it (not base64url yet).
  static std::string settings_payload() {
    std::uint8_t payload[64];
    const auto size = nghttp2_pack_settings_payload(payload, sizeof payload, settings().data(),
                                                    settings().size());
    return {reinterpret_cast<const char*>(payload), static_cast<std::size_t>(size)};
  }

  /// Goes on from an HTTP/1.1 upgrade request whose HTTP2-Settings was settings_payload():
  /// its response comes on stream 1. Call before any output().
  void upgraded(bool head) {
    const auto payload = settings_payload();
    nghttp2_session_upgrade2(session_, reinterpret_cast<const std::uint8_t*>(payload.data()),
                             payload.size(), head ? 1 : 0, nullptr);
    results_[1];
  }

  /// Opens a stream; `fields` after the pseudo-headers; a body if `body` is not empty. Returns
  /// its id.
  std::int32_t submit(const std::string& method, const std::string& path,
                      std::vector<std::pair<std::string, std::string>> fields = {},
                      std::string body = {}) {
    auto& request = requests_.emplace_back();
    request.body = std::move(body);
    request.fields = {
        {":method", method}, {":scheme", "http"}, {":authority", "test"}, {":path", path}};
    for (auto& field : fields) request.fields.push_back(std::move(field));
    std::vector<nghttp2_nv> nva;
    for (const auto& [name, value] : request.fields) nva.push_back(nv(name, value));
    nghttp2_data_provider provider{};
    provider.source.ptr = &request;
    provider.read_callback = read_body;
    const auto id = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(),
                                           request.body.empty() ? nullptr : &provider, nullptr);
    results_[id];
    return id;
  }

  /// Resets a stream (RST_STREAM, CANCEL), as a client giving up on a request does; it goes out
  /// with the next output().
  void reset(std::int32_t stream_id) {
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
  }

  /// The bytes to send now.
  std::string output() {
    std::string out;
    for (;;) {
      const std::uint8_t* data = nullptr;
      const auto size = nghttp2_session_mem_send(session_, &data);
      if (size <= 0) return out;
      out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
    }
  }

  /// Feeds what the server sent; false on a connection error.
  bool input(std::string_view bytes) {
    return nghttp2_session_mem_recv(session_, reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                    bytes.size()) >= 0;
  }

  /// True once every stream submitted has closed.
  [[nodiscard]] bool all_closed() const {
    for (const auto& [id, result] : results_) {
      if (!result.closed) return false;
    }
    return true;
  }

  /// The stream's result (an empty one for a stream never seen).
  H2Result& result(std::int32_t stream_id) { return results_[stream_id]; }

  /// The server's SETTINGS_MAX_CONCURRENT_STREAMS, once its SETTINGS arrived.
  [[nodiscard]] std::uint32_t server_max_streams() const {
    return nghttp2_session_get_remote_settings(session_, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
  }

  /// The order in which streams closed.
  [[nodiscard]] const std::vector<std::int32_t>& close_order() const { return close_order_; }

  /// True if the server sent GOAWAY.
  [[nodiscard]] bool got_goaway() const { return goaway_; }

 private:
  struct Request {
    std::vector<std::pair<std::string, std::string>> fields;
    std::string body;
    std::size_t sent = 0;
  };

  static const std::vector<nghttp2_settings_entry>& settings() {
    static const std::vector<nghttp2_settings_entry> entries{
        {NGHTTP2_SETTINGS_ENABLE_PUSH, 0}, {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 24}};
    return entries;
  }

  static nghttp2_nv nv(const std::string& name, const std::string& value) {
    return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
            reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
            value.size(), NGHTTP2_NV_FLAG_NONE};
  }

  static H2Client& of(void* user_data) { return *static_cast<H2Client*>(user_data); }

  static ssize_t read_body(nghttp2_session*, std::int32_t, std::uint8_t* buffer, std::size_t length,
                           std::uint32_t* flags, nghttp2_data_source* source, void*) {
    auto& request = *static_cast<Request*>(source->ptr);
    const auto size = std::min(length, request.body.size() - request.sent);
    std::copy_n(request.body.data() + request.sent, size, buffer);
    request.sent += size;
    if (request.sent == request.body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(size);
  }

  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                       std::size_t name_size, const std::uint8_t* value, std::size_t value_size,
                       std::uint8_t, void* user_data) {
    auto& result = of(user_data).results_[frame->hd.stream_id];
    auto& block = frame->headers.cat == NGHTTP2_HCAT_HEADERS ? result.trailers : result.headers;
    block[std::string(reinterpret_cast<const char*>(name), name_size)] =
        std::string(reinterpret_cast<const char*>(value), value_size);
    return 0;
  }

  static int on_data(nghttp2_session*, std::uint8_t, std::int32_t stream_id,
                     const std::uint8_t* data, std::size_t size, void* user_data) {
    of(user_data).results_[stream_id].body.append(reinterpret_cast<const char*>(data), size);
    return 0;
  }

  static int on_frame(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& self = of(user_data);
    if (frame->hd.type == NGHTTP2_DATA) {
      auto& result = self.results_[frame->hd.stream_id];
      ++result.data_frames;
      result.data_at.push_back(std::chrono::steady_clock::now());
      result.data_ends.push_back(result.body.size());
    }
    if (frame->hd.type == NGHTTP2_GOAWAY) self.goaway_ = true;
    return 0;
  }

  static int on_close(nghttp2_session*, std::int32_t stream_id, std::uint32_t error_code,
                      void* user_data) {
    auto& self = of(user_data);
    auto& result = self.results_[stream_id];
    result.closed = true;
    result.error_code = error_code;
    result.closed_at = std::chrono::steady_clock::now();
    self.close_order_.push_back(stream_id);
    return 0;
  }

  void make() {
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, on_close);
    nghttp2_session_client_new(&session_, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings().data(), settings().size());
    nghttp2_session_set_local_window_size(session_, NGHTTP2_FLAG_NONE, 0, 1 << 24);
  }

  nghttp2_session* session_ = nullptr;
  std::deque<Request> requests_;  // a deque: the data providers point at its elements
  std::map<std::int32_t, H2Result> results_;
  std::vector<std::int32_t> close_order_;
  bool goaway_ = false;
};

}  // namespace stampede::target_server
