// URL tests: schemes, ports, targets, dot segments, userinfo, -G's query, and refused URLs.
#include "curl/url.hpp"
#include "model/protocol.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace stampede::curl {
namespace {

model::Request url(std::string_view text) {
  model::Request request;
  (void)apply_url(text, request);
  return request;
}

model::Request origin_and_target(model::Scheme scheme, std::string host, unsigned short port,
                                 std::string target) {
  model::Request request;
  request.origin = {scheme, std::move(host), port};
  request.target = std::move(target);
  return request;
}

TEST(ApplyUrl, SchemesPortsAndTargets) {
  auto r = url("http://127.0.0.1:8080/api?x=1#frag");
  EXPECT_EQ(r.origin.scheme, model::Scheme::http);
  EXPECT_EQ(r.origin.host, "127.0.0.1");
  EXPECT_EQ(r.origin.port, 8080);
  EXPECT_EQ(r.target, "/api?x=1");
  r = url("https://localhost");
  EXPECT_EQ(r.origin.scheme, model::Scheme::https);
  EXPECT_EQ(r.origin.port, 443);
  EXPECT_EQ(r.target, "/");
  r = url("localhost:9000/x");  // a bare host means http://
  EXPECT_EQ(r.origin.scheme, model::Scheme::http);
  EXPECT_EQ(r.origin.host, "localhost");
  EXPECT_EQ(r.origin.port, 9000);
  EXPECT_EQ(r.target, "/x");
  r = url("http://[::1]:81/");
  EXPECT_EQ(r.origin.host, "::1");
  EXPECT_EQ(r.origin.port, 81);
}

TEST(ApplyUrl, WebSocketSchemesTakeTheirHttpCounterpartsPorts) {
  // Each URL, and the origin and target it gives: ws's port is http's, wss's https's.
  const std::vector<std::pair<const char*, model::Request>> cases{
      {"ws://127.0.0.1/echo?room=1",
       origin_and_target(model::Scheme::ws, "127.0.0.1", 80, "/echo?room=1")},
      {"wss://example.test", origin_and_target(model::Scheme::wss, "example.test", 443, "/")},
      {"WSS://[::1]:8443/x", origin_and_target(model::Scheme::wss, "::1", 8443, "/x")},
  };
  for (const auto& [text, expected] : cases) {
    const auto r = url(text);
    EXPECT_EQ(r.origin, expected.origin) << text << " gave " << r.origin.url();
    EXPECT_EQ(r.target, expected.target) << text;
  }
}

TEST(ApplyUrl, AnUnsupportedSchemeNamesTheSixSpoken) {
  try {
    (void)url("ftp://h/file");
    FAIL() << "ftp:// was accepted";
  } catch (const UrlError& error) {
    EXPECT_EQ(std::string(error.what()),
              "unsupported scheme 'ftp' in 'ftp://h/file' (stampede speaks http://, https://, "
              "ws://, wss://, grpc:// and grpcs://)");
  }
}

TEST(ApplyUrl, GrpcSchemesNameAMethodOverTcpOrTls) {
  const auto plain = url("grpc://127.0.0.1:50051/helloworld.Greeter/SayHello");
  EXPECT_EQ(plain.origin.scheme, model::Scheme::grpc);
  EXPECT_EQ(plain.origin.port, 50051);
  EXPECT_EQ(plain.target, "/helloworld.Greeter/SayHello");
  EXPECT_FALSE(plain.origin.secure());
  const auto tls = url("GRPCS://localhost/pkg.Svc/Method");
  EXPECT_EQ(tls.origin.scheme, model::Scheme::grpcs);
  EXPECT_EQ(tls.origin.port, 443);
  EXPECT_TRUE(tls.origin.secure());
  EXPECT_EQ(model::protocol_of(tls), model::Protocol::http2);
}

TEST(ApplyUrl, MalformedUrlsAreUrlErrors) {
  for (const char* bad :
       {"http://", "ftp://x/", "http://h:0/", "http://h:99999/", "http://a b/", "://x"}) {
    EXPECT_THROW(url(bad), UrlError) << bad;
  }
  // Boost.URL 1.81 reads these as port 18200 and path `abc/`; curl refuses them as bad ports.
  for (const char* bad : {"http://127.0.0.1:18200abc/", "http://h:80x", "http://[::1]:8a/"}) {
    try {
      (void)url(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UrlError& error) {
      EXPECT_EQ(std::string(error.what()),
                "bad port in URL '" + std::string(bad) + "' (use 1-65535)");
    }
  }
}

TEST(ApplyUrl, AMalformedUrlNamesItsFirstBadCharacterAndWhere) {
  const auto message = [](std::string_view bad) {
    try {
      (void)url(bad);
    } catch (const UrlError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("http://h/a b"),
            "malformed URL 'http://h/a b', at character 11: a space (percent-encode it)");
  EXPECT_EQ(message("http://h/${seq}/a|b"),
            "malformed URL 'http://h/${seq}/a|b', at character 18: '|' (percent-encode it)");
  EXPECT_EQ(message("http://h/caf\xc3\xa9"),
            "malformed URL 'http://h/caf\xc3\xa9', at character 13: the byte \\xC3 "
            "(percent-encode it)");
  EXPECT_EQ(message("http://[::1/"),
            "malformed URL 'http://[::1/' (expected http://host[:port]/path, https://, ws://, "
            "wss://, grpc:// or grpcs://...)");
}

TEST(ApplyUrl, SchemesIgnoreCase) {
  model::Request r;
  (void)apply_url("HTTPS://h/x", r);
  EXPECT_EQ(r.origin.scheme, model::Scheme::https);
  EXPECT_EQ(r.origin.port, 443);
}

TEST(ApplyUrl, DotSegmentsGoAndUserinfoIsReturned) {
  model::Request r;
  EXPECT_EQ(apply_url("http://u:p%40ss@h/a/./b/../c/..", r), "u:p@ss");
  EXPECT_EQ(r.target, "/a/");
  EXPECT_EQ(apply_url("http://h/x/../../y?q=/../", r), "");
  EXPECT_EQ(r.target, "/y?q=/../");
}

TEST(AppendQuery, SeparatorAndLowerCaseEscapes) {
  model::Request r;
  r.target = "/p";
  append_query("a=%2A", r);
  EXPECT_EQ(r.target, "/p?a=%2a");
  append_query("b=1", r);
  EXPECT_EQ(r.target, "/p?a=%2a&b=1");
  r.target = "/p?";
  append_query("c=%zz", r);
  EXPECT_EQ(r.target, "/p?c=%zz");
}

TEST(ApplyUrl, VariablesStayInThePathAndQuery) {
  model::Request r;
  apply_url("http://h/item/${rand:1-9}/../x?q=${uuid}&l=$${lit}", r);
  EXPECT_EQ(r.target, "/item/x?q=${uuid}&l=$${lit}");  // dot segments go as before
  EXPECT_EQ(r.origin.host, "h");
  EXPECT_THROW(apply_url("http://${user}.h/", r), UrlError);
  apply_url("http://h/%FFstampede/%FFstampede9%FF/${seq}", r);  // only look like placeholders
  EXPECT_EQ(r.target, "/%FFstampede/%FFstampede9%FF/${seq}");
  apply_url("http://%FFstampede0%FF.h/x", r);  // no variable: the host is as written
  EXPECT_EQ(r.target, "/x");
}

}  // namespace
}  // namespace stampede::curl
