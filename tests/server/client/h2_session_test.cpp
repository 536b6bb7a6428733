// H2Session against an nghttp2 server session in memory: responses, resets, GOAWAY and PINGs.
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

  /// The server's own PING, which the client must answer.
  void ping() { nghttp2_submit_ping(session_, NGHTTP2_FLAG_NONE, nullptr); }
  /// The server ends the connection: GOAWAY(NO_ERROR) with no stream of the client's cut off.
  void goaway() {
    nghttp2_submit_goaway(session_, NGHTTP2_FLAG_NONE,
                          nghttp2_session_get_last_proc_stream_id(session_), NGHTTP2_NO_ERROR,
                          nullptr, 0);
  }

  std::string received_body;
  int pings = 0;                     ///< PINGs received (not ACKs)
  int ping_acks = 0;                 ///< ACKs of our PINGs received
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
    if (frame->hd.type == NGHTTP2_GOAWAY) {
      ++self.goaways;
      self.goaway_error = frame->goaway.error_code;
    }
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

/// A held connection: one exchange done, the session open with no stream.
void exchange_once(FakeServer& server, H2Session& client) {
  static const auto request = get();
  model::Response response;
  ASSERT_TRUE(client.submit(request, response, false));
  server.talk(client);
  ASSERT_TRUE(client.stream_closed());
  ASSERT_EQ(response.status, 200);
}

TEST(H2Session, APingIsUnansweredUntilItsAckComes) {
  FakeServer server(Answer::ok);
  H2Session client;
  exchange_once(server, client);
  EXPECT_FALSE(client.ping_unanswered());
  ASSERT_TRUE(client.ping());
  EXPECT_TRUE(client.ping_unanswered());
  server.talk(client);
  EXPECT_EQ(server.pings, 1);
  EXPECT_FALSE(client.ping_unanswered());
  EXPECT_TRUE(client.reusable());
}

TEST(H2Session, OnlyAPingAckAnswersAPing) {
  // The server reads the PING and answers other frames (its SETTINGS ACK, its own PING) but
  // sends no ACK: the PING stays unanswered.
  FakeServer server(Answer::ok, Pings::ignored);
  H2Session client;
  exchange_once(server, client);
  ASSERT_TRUE(client.ping());
  server.ping();
  server.talk(client);
  EXPECT_EQ(server.pings, 1);
  EXPECT_TRUE(client.ping_unanswered());
}

TEST(H2Session, TheServersPingIsAnsweredInTheOutput) {
  FakeServer server(Answer::ok);
  H2Session client;
  exchange_once(server, client);
  server.ping();
  server.talk(client);
  EXPECT_EQ(server.ping_acks, 1);
  EXPECT_FALSE(client.server_goaway());
}

TEST(H2Session, GoodbyeIsGoawayWithNoErrorAndEndsTheSession) {
  FakeServer server(Answer::ok);
  H2Session client;
  exchange_once(server, client);
  client.goodbye();
  server.talk(client);
  EXPECT_EQ(server.goaways, 1);
  EXPECT_EQ(server.goaway_error, static_cast<std::uint32_t>(NGHTTP2_NO_ERROR));
  EXPECT_FALSE(client.error());  // our own goodbye is no failure
  EXPECT_FALSE(client.reusable());
  EXPECT_TRUE(client.output().empty());  // nothing goes out after it
  EXPECT_FALSE(client.server_goaway());
}

TEST(H2Session, TheServersGoawayWhileIdleIsNoticed) {
  FakeServer server(Answer::ok);
  H2Session client;
  exchange_once(server, client);
  EXPECT_FALSE(client.server_goaway());
  server.goaway();
  server.talk(client);
  EXPECT_TRUE(client.server_goaway());
  EXPECT_FALSE(client.reusable());
  EXPECT_FALSE(client.error());
}

}  // namespace
}  // namespace stampede::client
