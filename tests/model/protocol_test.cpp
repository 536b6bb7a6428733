// protocol_of() and the error kinds' properties: which protocol a request goes by, and which
// failures come with the server's HTTP status.
#include "model/protocol.hpp"

#include <gtest/gtest.h>

#include "model/error_kind.hpp"

namespace stampede::model {
namespace {

Request request(Scheme scheme, HttpVersion version = HttpVersion::any) {
  Request r;
  r.origin.scheme = scheme;
  r.http_version = version;
  return r;
}

TEST(ProtocolOf, HttpVersionChoosesForHttpSchemes) {
  EXPECT_EQ(protocol_of(request(Scheme::http)), Protocol::http1);
  EXPECT_EQ(protocol_of(request(Scheme::https)), Protocol::http1);
  EXPECT_EQ(protocol_of(request(Scheme::http, HttpVersion::http2)), Protocol::http2);  // Upgrade
  EXPECT_EQ(protocol_of(request(Scheme::https, HttpVersion::http2)), Protocol::http2);
  EXPECT_EQ(protocol_of(request(Scheme::http, HttpVersion::http2_prior_knowledge)),
            Protocol::http2);
}

// curl's --http2 asks to upgrade over plain TCP only: TLS offers h2 by ALPN instead.
TEST(ProtocolOf, OnlyHttp2OverHttpAsksToUpgrade) {
  EXPECT_TRUE(asks_h2c_upgrade(request(Scheme::http, HttpVersion::http2)));
  EXPECT_FALSE(asks_h2c_upgrade(request(Scheme::https, HttpVersion::http2)));
  EXPECT_FALSE(asks_h2c_upgrade(request(Scheme::http, HttpVersion::http2_prior_knowledge)));
  EXPECT_FALSE(asks_h2c_upgrade(request(Scheme::http)));
}

// A curl file's --http2 must not turn a ws:// step into HTTP/2: the scheme decides first.
TEST(ProtocolOf, WebSocketSchemesAreWebSocketWhateverTheHttpVersion) {
  for (const Scheme scheme : {Scheme::ws, Scheme::wss}) {
    for (const HttpVersion version :
         {HttpVersion::any, HttpVersion::http2, HttpVersion::http2_prior_knowledge}) {
      EXPECT_EQ(protocol_of(request(scheme, version)), Protocol::websocket)
          << static_cast<int>(scheme) << " " << static_cast<int>(version);
    }
  }
}

TEST(ErrorKind, OnlyResponsesAndRefusedUpgradesComeWithAStatus) {
  EXPECT_TRUE(comes_with_status(ErrorKind::none));
  EXPECT_TRUE(comes_with_status(ErrorKind::verify));
  EXPECT_TRUE(comes_with_status(ErrorKind::handshake));
  EXPECT_TRUE(comes_with_status(ErrorKind::capture));
  for (const ErrorKind kind :
       {ErrorKind::connect, ErrorKind::timeout, ErrorKind::read, ErrorKind::write,
        ErrorKind::protocol, ErrorKind::tls, ErrorKind::closed, ErrorKind::too_big}) {
    EXPECT_FALSE(comes_with_status(kind)) << to_string(kind);
  }
}

TEST(ErrorKind, WholeExchangesAreTheOnesWhoseLatencyCounts) {
  EXPECT_TRUE(whole_exchange(ErrorKind::none));
  EXPECT_TRUE(whole_exchange(ErrorKind::verify));
  EXPECT_TRUE(whole_exchange(ErrorKind::capture));
  EXPECT_FALSE(whole_exchange(ErrorKind::handshake));
  EXPECT_FALSE(whole_exchange(ErrorKind::timeout));
}

TEST(ErrorKind, WebSocketKindsAreNamedAndReportedLast) {
  EXPECT_EQ(to_string(ErrorKind::handshake), "handshake");
  EXPECT_EQ(to_string(ErrorKind::closed), "closed");
  EXPECT_EQ(to_string(ErrorKind::too_big), "too_big");
  EXPECT_EQ(to_string(ErrorKind::capture), "capture");
  EXPECT_EQ(to_string(ErrorKind::unsafe), "unsafe");
  // The text report prints the kinds after verify only when they occurred: they come last.
  EXPECT_EQ(failure_kinds.back(), ErrorKind::unsafe);
  EXPECT_EQ(failure_kinds[6], ErrorKind::verify);
}

}  // namespace
}  // namespace stampede::model
