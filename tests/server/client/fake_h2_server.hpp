// An nghttp2 server session in memory for the HTTP/2 client's sans-IO parts (H2Streams, H2Idle).
#pragma once

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>
#include <openssl/evp.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "server/client/h2_streams.hpp"

namespace stampede::client::h2_fake {

/// How the fake server answers each request it completes (`held`: not until release()).
enum class Answer { ok, reset, goaway, held };

/// Whether the fake server answers the client's PINGs (nghttp2 does unless told not to).
enum class Pings { acked, ignored };

/// An nghttp2 server that answers every complete request as told, with body "hello".
class FakeServer {
 public:
  explicit FakeServer(Answer answer, Pings pings = Pings::acked) : answer_(answer) {
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data);
    nghttp2_option* option = nullptr;
    nghttp2_option_new(&option);
    nghttp2_option_set_no_auto_ping_ack(option, pings == Pings::ignored ? 1 : 0);
    nghttp2_session_server_new2(&session_, callbacks, this, option);
    nghttp2_option_del(option);
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, nullptr, 0);
  }
  ~FakeServer() { nghttp2_session_del(session_); }
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  /// Moves bytes both ways until neither side has more to say (H2Streams or H2Idle).
  template <class Client>
  void talk(Client& client) {
    for (bool moved = true; moved;) {
      const auto to_server = client.output();
      receive(to_server);
      const auto to_client = send();
      if (!to_client.empty()) {
        EXPECT_TRUE(client.input(to_client.data(), to_client.size()));
      }
      moved = !to_server.empty() || !to_client.empty();
    }
  }

  /// Reads what the client wrote.
  void receive(std::string_view bytes) {
    nghttp2_session_mem_recv(session_, reinterpret_cast<const std::uint8_t*>(bytes.data()),
                             bytes.size());
  }

  /// What the server has to write now.
  std::string send() {
    const std::uint8_t* data = nullptr;
    std::string out;
    for (ssize_t n; (n = nghttp2_session_mem_send(session_, &data)) > 0;) {
      out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
    }
    return out;
  }

  /// The client's HTTP/1.1 request asked to upgrade with `settings` (HTTP2-Settings, base64url):
  /// the server switches, and answers that request on stream 1 with 200 "hello".
  void upgrade(std::string settings) {
    for (auto& c : settings) c = c == '-' ? '+' : c == '_' ? '/' : c;
    const auto padding = (4 - settings.size() % 4) % 4;
    settings.append(padding, '=');
    std::string payload(settings.size(), '\0');  // 3 bytes for each 4 characters, padding too
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(payload.data()),
                                  reinterpret_cast<const unsigned char*>(settings.data()),
                                  static_cast<int>(settings.size()));
    ASSERT_GT(n, 0);
    payload.resize(static_cast<std::size_t>(n) - padding);
    ASSERT_EQ(
        nghttp2_session_upgrade2(session_, reinterpret_cast<const std::uint8_t*>(payload.data()),
                                 payload.size(), 0, nullptr),
        0);
    respond(session_, 1);
  }

  /// A setting the client sent (by SETTINGS, or in its upgrade request).
  [[nodiscard]] std::uint32_t client_setting(nghttp2_settings_id id) const {
    return nghttp2_session_get_remote_settings(session_, id);
  }

  /// The server's own PING, which the client must answer.
  void ping() { nghttp2_submit_ping(session_, NGHTTP2_FLAG_NONE, nullptr); }
  /// New SETTINGS from the server, which the client must acknowledge.
  void settings(std::uint32_t max_streams = 10) {
    const nghttp2_settings_entry entry{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, max_streams};
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, &entry, 1);
  }
  /// The server ends the connection: GOAWAY(NO_ERROR) with no stream of the client's cut off.
  void goaway() {
    nghttp2_submit_goaway(session_, NGHTTP2_FLAG_NONE,
                          nghttp2_session_get_last_proc_stream_id(session_), NGHTTP2_NO_ERROR,
                          nullptr, 0);
  }

  /// Answers the requests held so far (Answer::held) with 200 "hello".
  void release() {
    for (const auto id : held_) respond(session_, id);
    held_.clear();
  }
  /// The server ends the connection: GOAWAY(NO_ERROR) with `last_stream` the last it takes.
  void goaway(std::int32_t last_stream) {
    nghttp2_submit_goaway(session_, NGHTTP2_FLAG_NONE, last_stream, NGHTTP2_NO_ERROR, nullptr, 0);
  }

  std::string received_body;
  int requests = 0;                  ///< requests received whole
  int resets = 0;                    ///< RST_STREAMs received
  std::uint32_t reset_error = ~0U;   ///< the error code of the last one
  int pings = 0;                     ///< PINGs received (not ACKs)
  int ping_acks = 0;                 ///< ACKs of our PINGs received
  int settings_acks = 0;             ///< ACKs of the server's SETTINGS received
  int goaways = 0;                   ///< GOAWAYs received
  std::uint32_t goaway_error = ~0U;  ///< the error code of the last one

 private:
  static int on_data(nghttp2_session*, std::uint8_t, std::int32_t, const std::uint8_t* data,
                     std::size_t n, void* self) {
    static_cast<FakeServer*>(self)->received_body.append(reinterpret_cast<const char*>(data), n);
    return 0;
  }

  static int on_frame(nghttp2_session* session, const nghttp2_frame* frame, void* user_data) {
    auto& self = *static_cast<FakeServer*>(user_data);
    if (frame->hd.type == NGHTTP2_PING) {
      ++((frame->hd.flags & NGHTTP2_FLAG_ACK) != 0 ? self.ping_acks : self.pings);
    }
    if (frame->hd.type == NGHTTP2_SETTINGS && (frame->hd.flags & NGHTTP2_FLAG_ACK) != 0) {
      ++self.settings_acks;
    }
    if (frame->hd.type == NGHTTP2_GOAWAY) {
      ++self.goaways;
      self.goaway_error = frame->goaway.error_code;
    }
    if (frame->hd.type == NGHTTP2_RST_STREAM) {
      ++self.resets;
      self.reset_error = frame->rst_stream.error_code;
    }
    const bool request_done =
        (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    if (!request_done) return 0;
    const auto id = frame->hd.stream_id;
    ++self.requests;
    if (self.answer_ == Answer::reset) {
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, id, NGHTTP2_INTERNAL_ERROR);
    } else if (self.answer_ == Answer::goaway) {
      nghttp2_submit_goaway(session, NGHTTP2_FLAG_NONE, id - 1, NGHTTP2_NO_ERROR, nullptr, 0);
    } else if (self.answer_ == Answer::held) {
      self.held_.push_back(id);
    } else {
      respond(session, id);
    }
    return 0;
  }

  static void respond(nghttp2_session* session, std::int32_t id) {
    nghttp2_nv headers[] = {header(":status", "200"), header("server", "fake")};
    nghttp2_data_provider provider{};
    provider.read_callback = [](nghttp2_session*, std::int32_t, std::uint8_t* buffer, std::size_t,
                                std::uint32_t* flags, nghttp2_data_source*, void*) -> ssize_t {
      std::memcpy(buffer, "hello", 5);
      *flags |= NGHTTP2_DATA_FLAG_EOF;
      return 5;
    };
    nghttp2_submit_response(session, id, headers, 2, &provider);
  }

  static nghttp2_nv header(const char* name, const char* value) {
    return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name)),
            reinterpret_cast<std::uint8_t*>(const_cast<char*>(value)), std::strlen(name),
            std::strlen(value), NGHTTP2_NV_FLAG_NONE};
  }

  nghttp2_session* session_ = nullptr;
  Answer answer_;
  std::vector<std::int32_t> held_;  ///< requests not answered yet (Answer::held)
};

/// A GET of "/" from "h".
inline Http2Wire get() {
  Http2Wire request;
  request.headers = {{":method", "GET"}, {":scheme", "http"}, {":authority", "h"}, {":path", "/"}};
  return request;
}

/// A call and its response, counting how often it was told it is done.
struct Waiter {
  model::Response response;
  H2Call call;
  int told = 0;

  explicit Waiter(const Http2Wire& request, bool keep_body = true) {
    call.request = &request;
    call.response = &response;
    call.keep_body = keep_body;
    call.owner = this;
    call.on_done = [](H2Call& done) { ++static_cast<Waiter*>(done.owner)->told; };
  }
  Waiter(const Waiter&) = delete;  // the call points into it
  Waiter& operator=(const Waiter&) = delete;
};

/// A held connection: one exchange done, the session open with no stream.
inline void exchange_once(FakeServer& server, H2Streams& client) {
  static const auto request = get();
  Waiter waiter(request, false);
  ASSERT_TRUE(client.submit(waiter.call));
  server.talk(client);
  ASSERT_TRUE(waiter.call.done);
  ASSERT_EQ(waiter.response.status, 200);
}

}  // namespace stampede::client::h2_fake
