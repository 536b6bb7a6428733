// Serialization tests: the exact bytes a request puts on the wire.
#include "server/client/prepared_request.hpp"

#include <gtest/gtest.h>

namespace stampede::client {
namespace {

model::Request request() {
  model::Request r;
  r.host = "127.0.0.1";
  r.port = 8080;
  r.target = "/api?x=1";
  return r;
}

TEST(Prepare, GetWithoutKeepAliveClosesTheConnection) {
  const auto prepared = prepare(request());
  EXPECT_EQ(prepared.bytes,
            "GET /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: stampede/0.1.0\r\n"
            "Accept: */*\r\nConnection: close\r\n\r\n");
  EXPECT_FALSE(prepared.head);
}

TEST(Prepare, PostWithBodyKeepAliveAndUserHeaders) {
  auto r = request();
  r.port = 80;
  r.method = "POST";
  r.body = R"({"a":1})";
  r.keep_alive = true;
  r.headers = {{"Content-Type", "application/json"}, {"user-agent", "mine"}, {"X-A", "1"}};
  const auto bytes = prepare(r).bytes;
  EXPECT_NE(bytes.find("POST /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"), std::string::npos);
  EXPECT_NE(bytes.find("Content-Type: application/json\r\n"), std::string::npos);
  EXPECT_EQ(bytes.find("x-www-form-urlencoded"), std::string::npos);
  EXPECT_NE(bytes.find("User-Agent: mine\r\n"), std::string::npos);
  EXPECT_EQ(bytes.find("stampede/"), std::string::npos);
  EXPECT_NE(bytes.find("X-A: 1\r\n"), std::string::npos);
  EXPECT_NE(bytes.find("Content-Length: 7\r\n"), std::string::npos);
  EXPECT_EQ(bytes.find("Connection:"), std::string::npos);
  EXPECT_TRUE(bytes.ends_with("\r\n\r\n{\"a\":1}"));
}

TEST(Prepare, FormDefaultContentTypeIpv6HostAndHead) {
  auto r = request();
  r.host = "::1";
  r.method = "HEAD";
  auto prepared = prepare(r);
  EXPECT_NE(prepared.bytes.find("Host: [::1]:8080\r\n"), std::string::npos);
  EXPECT_TRUE(prepared.head);
  r.method = "POST";
  r.body = "a=1";
  prepared = prepare(r);
  EXPECT_NE(prepared.bytes.find("Content-Type: application/x-www-form-urlencoded\r\n"),
            std::string::npos);
}

TEST(Prepare, OmittedDefaultHeadersAreNotSent) {
  auto r = request();
  r.method = "PUT";
  r.body = "x";
  r.omit_headers = {"accept", "User-Agent", "Content-Type"};
  r.headers = {{"X-Empty", ""}};
  const auto bytes = prepare(r).bytes;
  EXPECT_EQ(bytes,
            "PUT /api?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Empty: \r\n"
            "Connection: close\r\nContent-Length: 1\r\n\r\nx");
}

TEST(Prepare, OnlyIdempotentMethodsMayBeResent) {
  auto r = request();
  for (const char* method : {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}) {
    r.method = method;
    EXPECT_TRUE(prepare(r).idempotent) << method;
  }
  for (const char* method : {"POST", "PATCH"}) {
    r.method = method;
    EXPECT_FALSE(prepare(r).idempotent) << method;
  }
}

}  // namespace
}  // namespace stampede::client
