// Cookie jar tests: RFC 6265's storage and sending rules, and its date algorithm.
#include "server/session/cookie_jar.hpp"

#include <gtest/gtest.h>

namespace stampede::session {
namespace {

constexpr UnixSeconds now = 1700000000;  // Tue, 14 Nov 2023 22:13:20 GMT

model::Origin jar_origin(std::string host, model::Scheme scheme = model::Scheme::http) {
  return {scheme, std::move(host), model::Origin::default_port(scheme)};
}

std::string sent(const CookieJar& jar, const model::Origin& to, std::string_view target,
                 UnixSeconds at = now) {
  std::string out;
  jar.header_for(to, target, at, out);
  return out;
}

TEST(CookieJar, KeepsReplacesAndDeletes) {
  CookieJar jar;
  const auto shop = jar_origin("shop.example");
  jar.receive("sid=abc; Path=/; HttpOnly; SameSite=Lax", shop, "/login", now);
  jar.receive("theme = dark ", shop, "/account/login", now);
  EXPECT_EQ(sent(jar, shop, "/cart?x=1"), "sid=abc");  // theme's default path: /account
  EXPECT_EQ(sent(jar, shop, "/account/orders"), "theme=dark; sid=abc");
  jar.receive("sid=def; Path=/", shop, "/", now);
  EXPECT_EQ(sent(jar, shop, "/account"), "theme=dark; sid=def");  // replaced
  jar.receive("sid=; Max-Age=0; Path=/", shop, "/", now);
  EXPECT_EQ(sent(jar, shop, "/account"), "theme=dark");
  jar.receive("theme=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT", shop, "/account/", now);
  EXPECT_TRUE(jar.empty());
  for (const auto* ignored : {"novalue", "=v", "; a=b"}) jar.receive(ignored, shop, "/", now);
  EXPECT_TRUE(jar.empty());
}

// curl's -b FILE: the file's cookies are the jar's first, and a server's Set-Cookie replaces or
// deletes them as any other.
TEST(CookieJar, CookiesFromAFileAreKeptAndReplacedLikeAnyOther) {
  CookieJar jar;
  const auto shop = jar_origin("shop.example");
  jar.load({"shop.example", true, "/", false, 0, "sid", "old"}, now);
  jar.load({"example", false, "/", false, 0, "region", "eu"}, now);          // .example: subdomains
  jar.load({"shop.example", true, "/", false, now - 1, "stale", "x"}, now);  // expired: dropped
  jar.load({"shop.example", true, "/", true, 0, "tls", "1"}, now);           // Secure
  EXPECT_EQ(sent(jar, shop, "/"), "sid=old; region=eu");
  EXPECT_EQ(sent(jar, jar_origin("shop.example", model::Scheme::https), "/"),
            "sid=old; region=eu; tls=1");
  EXPECT_EQ(sent(jar, jar_origin("other.example"), "/"), "region=eu");
  jar.receive("sid=new; Path=/", shop, "/login", now);
  EXPECT_EQ(sent(jar, shop, "/"), "sid=new; region=eu");  // replaced, not sent twice
  jar.receive("sid=; Max-Age=0; Path=/", shop, "/logout", now);
  EXPECT_EQ(sent(jar, shop, "/"), "region=eu");
}

TEST(CookieJar, ExpiryByMaxAgeOverExpires) {
  CookieJar jar;
  const auto site = jar_origin("a.test");
  jar.receive("a=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT", site, "/", now);
  jar.receive("b=2; Expires=Wed, 15 Nov 2023 00:00:00 GMT", site, "/", now);
  EXPECT_EQ(sent(jar, site, "/"), "a=1; b=2");
  EXPECT_EQ(sent(jar, site, "/", now + 61), "b=2");
  EXPECT_EQ(sent(jar, site, "/", now + 7000), "");
}

TEST(CookieJar, DomainsAndHostOnlyCookies) {
  CookieJar jar;
  jar.receive("wide=1; Domain=.Example.com", jar_origin("www.example.com"), "/", now);
  jar.receive("narrow=1", jar_origin("www.example.com"), "/", now);
  jar.receive("other=1; Domain=evil.test", jar_origin("www.example.com"), "/",
              now);  // not its domain
  EXPECT_EQ(sent(jar, jar_origin("api.example.com"), "/"), "wide=1");
  EXPECT_EQ(sent(jar, jar_origin("WWW.example.com"), "/"), "wide=1; narrow=1");
  EXPECT_EQ(sent(jar, jar_origin("example.com"), "/"), "wide=1");
  EXPECT_EQ(sent(jar, jar_origin("notexample.com"), "/"), "");
  EXPECT_EQ(jar.size(), 2U);
  jar.receive("ip=1; Domain=0.0.1", jar_origin("127.0.0.1"), "/",
              now);  // an address is never a domain
  EXPECT_EQ(jar.size(), 2U);
}

TEST(CookieJar, PathsOrderAndSecure) {
  CookieJar jar;
  const auto site = jar_origin("s.test");
  jar.receive("root=1; Path=/", site, "/", now);
  jar.receive("deep=1; Path=/api/v1", site, "/", now);
  jar.receive("api=1; Path=/api/", site, "/", now);
  EXPECT_EQ(sent(jar, site, "/api/v1/items"), "deep=1; api=1; root=1");  // longer paths first
  EXPECT_EQ(sent(jar, site, "/api/v10"), "api=1; root=1");  // /api/v1 is not its parent
  EXPECT_EQ(sent(jar, site, "/apix"), "root=1");
  jar.receive("tls=1; Secure", site, "/", now);  // from http: refused
  jar.receive("tls=1; Secure", jar_origin("s.test", model::Scheme::https), "/", now);
  EXPECT_EQ(sent(jar, site, "/"), "root=1");
  EXPECT_EQ(sent(jar, jar_origin("s.test", model::Scheme::https), "/"), "root=1; tls=1");
  jar.receive("local=1; Secure", jar_origin("127.0.0.1"), "/", now);  // loopback counts as secure
  EXPECT_EQ(sent(jar, jar_origin("127.0.0.1"), "/"), "local=1");
}

TEST(CookieJar, BoundedSize) {
  CookieJar jar;
  for (int i = 0; i < 250; ++i) {
    jar.receive("c" + std::to_string(i) + "=1", jar_origin("b.test"), "/", now);
  }
  EXPECT_EQ(jar.size(), CookieJar::max_cookies);
  EXPECT_EQ(sent(jar, jar_origin("b.test"), "/").substr(0, 7), "c50=1; ");  // the oldest went first
}

TEST(ParseCookieDate, Rfc6265Algorithm) {
  EXPECT_EQ(parse_cookie_date("Sun, 06 Nov 1994 08:49:37 GMT"), 784111777);
  EXPECT_EQ(parse_cookie_date("Sunday, 06-Nov-94 08:49:37 GMT"), 784111777);
  EXPECT_EQ(parse_cookie_date("Sun Nov  6 08:49:37 1994"), 784111777);
  EXPECT_EQ(parse_cookie_date("Wed, 15 Nov 2023 00:00:00 GMT"), 1700006400);
  EXPECT_EQ(parse_cookie_date("15-Nov-23 0:0:0"), 1700006400);
  for (const auto* bad : {"", "tomorrow", "Wed, 15 Nov 2023", "32 Nov 2023 00:00:00",
                          "15 Nov 1500 00:00:00", "15 Nov 2023 24:00:00"}) {
    EXPECT_EQ(parse_cookie_date(bad), -1) << bad;
  }
}

}  // namespace
}  // namespace stampede::session
