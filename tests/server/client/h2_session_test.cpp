// H2Session against an nghttp2 server session in memory: responses, resets and GOAWAY.
#include "server/client/h2_session.hpp"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <cstring>
#include <string>

#include "server/client/h2_error.hpp"

namespace stampede::client {
namespace {

/// How the fake server answers each request it completes.
enum class Answer { ok, reset, goaway };

/// An nghttp2 server that answers every complete request as told, with body "hello".
class FakeServer {
 public:
  explicit FakeServer(Answer answer) : answer_(answer) {
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data);
    nghttp2_session_server_new(&session_, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, nullptr, 0);
  }
  ~FakeServer() { nghttp2_session_del(session_); }
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  /// Moves bytes both ways until neither side has more to say.
  void talk(H2Session& client) {
    for (bool moved = true; moved;) {
      const auto to_server = client.output();
      nghttp2_session_mem_recv(session_, reinterpret_cast<const std::uint8_t*>(to_server.data()),
                               to_server.size());
      const std::uint8_t* data = nullptr;
      std::string to_client;
      for (ssize_t n; (n = nghttp2_session_mem_send(session_, &data)) > 0;) {
        to_client.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
      }
      if (!to_client.empty()) {
        EXPECT_TRUE(client.input(to_client.data(), to_client.size()));
      }
      moved = !to_server.empty() || !to_client.empty();
    }
  }

  std::string received_body;

 private:
  static int on_data(nghttp2_session*, std::uint8_t, std::int32_t, const std::uint8_t* data,
                     std::size_t n, void* self) {
    static_cast<FakeServer*>(self)->received_body.append(reinterpret_cast<const char*>(data), n);
    return 0;
  }

  static int on_frame(nghttp2_session* session, const nghttp2_frame* frame, void* user_data) {
    auto& self = *static_cast<FakeServer*>(user_data);
    const bool request_done =
        (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    if (!request_done) return 0;
    const auto id = frame->hd.stream_id;
    if (self.answer_ == Answer::reset) {
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, id, NGHTTP2_INTERNAL_ERROR);
    } else if (self.answer_ == Answer::goaway) {
      nghttp2_submit_goaway(session, NGHTTP2_FLAG_NONE, id - 1, NGHTTP2_NO_ERROR, nullptr, 0);
    } else {
      static const char* body = "hello";
      nghttp2_nv headers[] = {header(":status", "200"), header("server", "fake")};
      nghttp2_data_provider provider{};
      provider.read_callback = [](nghttp2_session*, std::int32_t, std::uint8_t* buffer, std::size_t,
                                  std::uint32_t* flags, nghttp2_data_source*, void*) -> ssize_t {
        std::memcpy(buffer, body, 5);
        *flags |= NGHTTP2_DATA_FLAG_EOF;
        return 5;
      };
      nghttp2_submit_response(session, id, headers, 2, &provider);
    }
    return 0;
  }

  static nghttp2_nv header(const char* name, const char* value) {
    return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name)),
            reinterpret_cast<std::uint8_t*>(const_cast<char*>(value)), std::strlen(name),
            std::strlen(value), NGHTTP2_NV_FLAG_NONE};
  }

  nghttp2_session* session_ = nullptr;
  Answer answer_;
};

Http2Wire get() {
  Http2Wire request;
  request.headers = {{":method", "GET"}, {":scheme", "http"}, {":authority", "h"}, {":path", "/"}};
  return request;
}

TEST(H2Session, ResponseStatusHeadersAndBodyReachTheResponse) {
  FakeServer server(Answer::ok);
  H2Session client;
  const auto request = get();
  EXPECT_FALSE(client.server_settings());
  for (int i = 0; i < 2; ++i) {  // the session carries one stream after another
    model::Response response;
    ASSERT_TRUE(client.submit(request, response, true));
    server.talk(client);
    EXPECT_TRUE(client.stream_closed());
    EXPECT_FALSE(client.error());
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.server, "fake");
    EXPECT_EQ(response.body, "hello");
    EXPECT_EQ(response.body_bytes, 5u);
    EXPECT_TRUE(client.reusable());
    EXPECT_TRUE(client.server_settings());  // the server's preface came
  }
}

TEST(H2Session, ABodyGoesOutInDataFrames) {
  FakeServer server(Answer::ok);
  H2Session client;
  auto request = get();
  request.headers[0].second = "POST";
  request.body = std::string(100000, 'b');  // more than one DATA frame (16 KiB each)
  model::Response response;
  ASSERT_TRUE(client.submit(request, response, false));
  server.talk(client);
  EXPECT_EQ(server.received_body, request.body);
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(response.body.empty());  // not kept
  EXPECT_EQ(response.body_bytes, 5u);
}

TEST(H2Session, AResetStreamIsAProtocolError) {
  FakeServer server(Answer::reset);
  H2Session client;
  const auto request = get();
  model::Response response;
  ASSERT_TRUE(client.submit(request, response, false));
  server.talk(client);
  EXPECT_TRUE(client.stream_closed());
  EXPECT_EQ(client.error(), h2_peer_error(NGHTTP2_INTERNAL_ERROR));
  EXPECT_FALSE(client.refused());
}

TEST(H2Session, AStreamBeyondGoawayIsRefusedAndTheSessionIsDone) {
  FakeServer server(Answer::goaway);
  H2Session client;
  const auto request = get();
  model::Response response;
  ASSERT_TRUE(client.submit(request, response, false));
  server.talk(client);
  EXPECT_TRUE(client.stream_closed());
  EXPECT_TRUE(client.refused());
  EXPECT_FALSE(client.reusable());
}

}  // namespace
}  // namespace stampede::client
