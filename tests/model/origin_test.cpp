// Origin: how scheme, host and port are spelled in URLs and Host headers, and what "same" means.
#include "model/origin.hpp"

#include <gtest/gtest.h>

namespace stampede::model {
namespace {

TEST(Origin, DefaultPortsAreLeftOut) {
  EXPECT_EQ((Origin{Scheme::http, "example.test", 80}.url()), "http://example.test");
  EXPECT_EQ((Origin{Scheme::https, "example.test", 443}.url()), "https://example.test");
  EXPECT_EQ((Origin{Scheme::https, "example.test", 80}.authority()), "example.test:80");
  EXPECT_EQ((Origin{Scheme::http, "127.0.0.1", 8080}.url()), "http://127.0.0.1:8080");
}

TEST(Origin, Ipv6AddressesGoInBrackets) {
  EXPECT_EQ((Origin{Scheme::http, "::1", 80}.authority()), "[::1]");
  EXPECT_EQ((Origin{Scheme::https, "::1", 8443}.url()), "https://[::1]:8443");
}

TEST(Origin, EachSchemeItsNamePortAndTransport) {
  struct Expected {
    Scheme scheme;
    const char* name;
    unsigned short port;
    bool secure;
  };
  for (const auto& [scheme, name, port, secure] :
       {Expected{Scheme::http, "http", 80, false}, Expected{Scheme::https, "https", 443, true},
        Expected{Scheme::ws, "ws", 80, false}, Expected{Scheme::wss, "wss", 443, true}}) {
    const Origin origin{scheme, "h", port};
    EXPECT_EQ(std::string(origin.scheme_name()), name);
    EXPECT_EQ(Origin::default_port(scheme), port) << name;
    EXPECT_EQ(origin.secure(), secure) << name;
    EXPECT_EQ(is_websocket(scheme), name[0] == 'w') << name;
    EXPECT_EQ(origin.url(), std::string(name) + "://h") << name;  // the default port is left out
  }
  EXPECT_EQ((Origin{Scheme::wss, "::1", 8443}.url()), "wss://[::1]:8443");
}

TEST(Origin, SameOriginIsSchemeHostAndPort) {
  const Origin a{Scheme::http, "127.0.0.1", 8080};
  EXPECT_EQ(a, (Origin{Scheme::http, "127.0.0.1", 8080}));
  EXPECT_NE(a, (Origin{Scheme::https, "127.0.0.1", 8080}));
  EXPECT_NE(a, (Origin{Scheme::ws, "127.0.0.1", 8080}));  // a WebSocket is not an HTTP origin
  EXPECT_NE(a, (Origin{Scheme::http, "localhost", 8080}));
  EXPECT_NE(a, (Origin{Scheme::http, "127.0.0.1", 8081}));
}

}  // namespace
}  // namespace stampede::model
