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

TEST(Origin, SameOriginIsSchemeHostAndPort) {
  const Origin a{Scheme::http, "127.0.0.1", 8080};
  EXPECT_EQ(a, (Origin{Scheme::http, "127.0.0.1", 8080}));
  EXPECT_NE(a, (Origin{Scheme::https, "127.0.0.1", 8080}));
  EXPECT_NE(a, (Origin{Scheme::http, "localhost", 8080}));
  EXPECT_NE(a, (Origin{Scheme::http, "127.0.0.1", 8081}));
}

}  // namespace
}  // namespace stampede::model
