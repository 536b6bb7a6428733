// Option effect tests: what each curl option does to the request, checked against curl 7.88.1.
#include "curl/to_request.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "curl/parse.hpp"
#include "tests/curl/error_text.hpp"

namespace stampede::curl {
namespace {

class ToRequest : public testing::Test {
 protected:
  void SetUp() override {
    // A directory a test: ctest runs each test in a process of its own, in parallel, and one
    // rewriting a file another reads made that one read it empty.
    dir_ = std::filesystem::path(testing::TempDir()) /
           ("stampede_curl_to_request_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
    write("note.txt", "one\r\ntwo\n");
    write("pic.PNG", "\x89PNG");
    write("jar.txt",
          "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc\n"
          "#HttpOnly_.example.org\tTRUE\t/app\tTRUE\t2000000000\tpref\tv\n");
    write("headers.txt", "X-From-File: 1\n\nX-Other: 2\n");
  }
  void write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
  }
  Parsed parse(std::string_view text) { return parse_text(text, "t.curl", dir_); }
  model::Request one(std::string_view text) { return parse(text).steps.at(0); }
  static std::string header(const model::Request& r, std::string_view name) {
    for (const auto& [key, value] : r.headers) {
      if (key == name) return value;
    }
    return "(none)";
  }
  std::string error_of(std::string_view text) {
    return error_text([&] { (void)parse(text); });
  }

  std::filesystem::path dir_;
};

TEST_F(ToRequest, DefaultMethodsFollowCurl) {
  EXPECT_EQ(one("curl h").method, "GET");
  EXPECT_EQ(one("curl -d a h").method, "POST");
  EXPECT_EQ(one("curl -F a=1 h").method, "POST");
  EXPECT_EQ(one("curl -T note.txt h/").method, "PUT");
  EXPECT_EQ(one("curl -I h").method, "HEAD");
  EXPECT_EQ(one("curl -G -d a h").method, "GET");
  EXPECT_EQ(one("curl -X PATCH -d a h").method, "PATCH");
  EXPECT_EQ(one("curl -d a -X GET h").body, "a");  // -X changes the method only
}

TEST_F(ToRequest, DataPiecesJoinAsCurlJoinsThem) {
  auto r = one("curl -d a=1 -d @note.txt --data-binary @note.txt --data-raw @x h");
  EXPECT_EQ(r.body, "a=1&onetwo&one\r\ntwo\n&@x");
  EXPECT_EQ(header(r, "Content-Type"), "application/x-www-form-urlencoded");
  r = one("curl -d '' h");
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(header(r, "Content-Type"), "application/x-www-form-urlencoded");
  r = one("curl --json '{\"a\":' --json '1}' -d b=2 h");
  EXPECT_EQ(r.body, "{\"a\":1}&b=2");
  EXPECT_EQ(header(r, "Content-Type"), "application/json");
  EXPECT_EQ(header(r, "Accept"), "application/json");
}

TEST_F(ToRequest, UrlencodeForms) {
  const auto r =
      one("curl --data-urlencode 'a b' --data-urlencode '=c&d' --data-urlencode 'n=é/~' "
          "--data-urlencode @note.txt --data-urlencode 'f@note.txt' h");
  EXPECT_EQ(r.body, "a+b&c%26d&n=%C3%A9%2F~&one%0D%0Atwo%0A&f=one%0D%0Atwo%0A");
}

TEST_F(ToRequest, GetPutsDataInTheQuery) {
  auto r = one("curl -G 'http://h/p?x=1' -d a=%2A --data-urlencode 'b=c d'");
  EXPECT_EQ(r.target, "/p?x=1&a=%2a&b=c+d");
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(header(r, "Content-Type"), "(none)");
  EXPECT_EQ(one("curl -G -I h/q -d z").target, "/q?z");
}

TEST_F(ToRequest, HeadersValuesEmptiesAndRemovals) {
  const auto r =
      one("curl -H 'X-A:  v ' -H 'X-Empty;' -H 'Accept:' -H 'nocolon' -H @headers.txt h");
  ASSERT_EQ(r.headers.size(), 4U);
  EXPECT_EQ(header(r, "X-A"), "v");
  EXPECT_EQ(header(r, "X-Empty"), "");
  EXPECT_EQ(header(r, "X-From-File"), "1");
  EXPECT_EQ(header(r, "X-Other"), "2");
  EXPECT_EQ(r.omit_headers, std::vector<std::string>{"Accept"});
  const auto warnings = parse("curl -H nocolon h").warnings;
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_TRUE(warnings[0].starts_with("t.curl:1:9: header 'nocolon' has no ':'")) << warnings[0];
}

TEST_F(ToRequest, TheFilesOwnFramingHeadersAreNotSentAndSaySo) {
  const auto parsed = parse(
      "curl -H 'Content-Length: 5' -H 'transfer-encoding: chunked' -H 'Content-Length;' "
      "--data-raw abcdefghij h");
  const auto& r = parsed.steps.at(0);
  EXPECT_EQ(header(r, "Content-Length"), "(none)");
  EXPECT_EQ(header(r, "transfer-encoding"), "(none)");
  EXPECT_EQ(r.body, "abcdefghij");
  const std::string why =
      "' is not sent: stampede frames the body itself (its Content-Length "
      "is the body's size)";
  EXPECT_EQ(parsed.warnings,
            (std::vector<std::string>{"t.curl:1:9: header 'Content-Length: 5" + why,
                                      "t.curl:1:32: header 'transfer-encoding: chunked" + why,
                                      "t.curl:1:64: header 'Content-Length;" + why}));
}

TEST_F(ToRequest, IdentityHeaders) {
  auto r = one("curl -u ada:s3cret -A 'agent/1' -e 'http://r/;auto' -b 'a=1' -b 'b=2' h");
  EXPECT_EQ(header(r, "Authorization"), "Basic YWRhOnMzY3JldA==");
  EXPECT_EQ(header(r, "User-Agent"), "agent/1");
  EXPECT_EQ(header(r, "Referer"), "http://r/");
  EXPECT_EQ(header(r, "Cookie"), "a=1;b=2");
  r = one("curl -A '' -u a:b -H 'Authorization: X' -H 'Cookie: c=3' -b 'd=4' http://u:p@h/");
  EXPECT_EQ(r.omit_headers, std::vector<std::string>{"User-Agent"});
  EXPECT_EQ(header(r, "Authorization"), "X");  // the user's own header wins, as in curl
  EXPECT_EQ(header(r, "Cookie"), "c=3");
  EXPECT_EQ(header(one("curl http://u:p%21@h/"), "Authorization"), "Basic dTpwIQ==");
  EXPECT_EQ(header(one("curl -e '' h"), "Referer"), "(none)");
  // A cookie file goes to the user's jar, as curl's engine loads it; strings are the header.
  r = one("curl -b jar.txt -b x=1 http://127.0.0.1/");
  EXPECT_EQ(header(r, "Cookie"), "x=1");
  ASSERT_EQ(r.jar_cookies.size(), 2U);
  EXPECT_EQ(r.jar_cookies[0].name, "sid");
  EXPECT_EQ(r.jar_cookies[0].value, "abc");
  EXPECT_EQ(r.jar_cookies[0].domain, "127.0.0.1");
  EXPECT_TRUE(r.jar_cookies[0].host_only);
  EXPECT_EQ(r.jar_cookies[1].domain, "example.org");  // `.example.org`: subdomains too
  EXPECT_FALSE(r.jar_cookies[1].host_only);
  EXPECT_TRUE(r.jar_cookies[1].secure);
  EXPECT_EQ(r.jar_cookies[1].expires, 2000000000);
  EXPECT_EQ(r.jar_cookies[1].path, "/app");
  EXPECT_EQ(parse("curl -b missing-jar h").warnings.size(), 1U);
  EXPECT_EQ(parse("curl -u ada h").warnings.size(), 1U);  // curl would prompt for a password
  // curl keeps the methods as a set: Basic alone goes at once; with Digest too the server's
  // challenge chooses; --no-basic alone leaves no method, and libcurl's default is Basic.
  EXPECT_EQ(header(one("curl --basic -u a:b h"), "Authorization"), "Basic YTpi");
  for (const auto* both : {"curl --digest --basic -u a:b h", "curl --basic --digest -u a:b h"}) {
    const auto r = one(both);
    EXPECT_EQ(header(r, "Authorization"), "(none)") << both;
    ASSERT_TRUE(r.digest) << both;
    EXPECT_TRUE(r.digest->basic_too) << both;
  }
  EXPECT_FALSE(one("curl --digest --no-basic -u a:b h").digest->basic_too);
  EXPECT_FALSE(one("curl --digest -u a:b h").digest->basic_too);
  EXPECT_EQ(header(one("curl --no-basic -u a:b h"), "Authorization"), "Basic YTpi");
  // A bearer goes first unless Digest is asked for: then curl waits for the challenge.
  EXPECT_EQ(header(one("curl --oauth2-bearer X h"), "Authorization"), "Bearer X");
  const auto digest = one("curl --oauth2-bearer X --user u:p --no-basic --digest h");
  EXPECT_EQ(header(digest, "Authorization"), "(none)");
  ASSERT_TRUE(digest.digest);
  EXPECT_EQ(digest.digest->user, "u");
}

TEST_F(ToRequest, MultipartBody) {
  const auto r =
      one("curl -F 'a=\"x;y\";type=text/x' -F 'f=@pic.PNG' -F 'g=<note.txt;type=t/u' "
          "--form-string 'h=@raw;type=z' h");
  const auto type = header(r, "Content-Type");
  ASSERT_TRUE(type.starts_with("multipart/form-data; boundary=------------------------"));
  const auto b = "--" + type.substr(type.find('=') + 1);
  EXPECT_EQ(r.body, b +
                        "\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: text/x"
                        "\r\n\r\nx;y\r\n" +
                        b +
                        "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"pic.PNG\""
                        "\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n" +
                        b +
                        "\r\nContent-Disposition: form-data; name=\"g\"\r\nContent-Type: t/u"
                        "\r\n\r\none\r\ntwo\n\r\n" +
                        b +
                        "\r\nContent-Disposition: form-data; name=\"h\"\r\n\r\n@raw;type=z\r\n" +
                        b + "--\r\n");
}

TEST_F(ToRequest, UploadHeadAndFlags) {
  auto r = one("curl -T note.txt 'http://h/up/?v=1'");
  EXPECT_EQ(r.target, "/up/note.txt?v=1");
  EXPECT_EQ(r.body, "one\r\ntwo\n");
  EXPECT_EQ(header(r, "Expect"), "100-continue");
  EXPECT_EQ(r.omit_headers, std::vector<std::string>{"Content-Type"});
  r = one("curl -k -L --compressed --http2 --max-time 2.5 --connect-timeout 1 https://h/");
  EXPECT_TRUE(r.insecure && r.follow_redirects && r.compressed && r.tls_resume);
  EXPECT_EQ(header(r, "Accept-Encoding"), "deflate, gzip, br, zstd");
  EXPECT_EQ(r.http_version, model::HttpVersion::http2);
  EXPECT_EQ(r.max_time, std::chrono::milliseconds(2500));
  EXPECT_EQ(r.connect_timeout, std::chrono::milliseconds(1000));
  EXPECT_FALSE(one("curl --no-sessionid https://h/").tls_resume);  // full handshakes, as curl's
}

TEST_F(ToRequest, StandardInputFromHereStringsDocumentsAndFiles) {
  EXPECT_EQ(one("curl -d @- h <<< 'a=1'").body, "a=1");  // -d drops the new line bash adds
  EXPECT_EQ(one("curl --data-binary @- h <<EOF\nx\ny\nEOF\n").body, "x\ny\n");
  EXPECT_EQ(one("curl -T - h/ < note.txt").body, "one\r\ntwo\n");
  EXPECT_EQ(one("curl -H @- h <<< 'X-In: 1'").headers.at(0).second, "1");
}

TEST_F(ToRequest, RangeQueryAuthorizationAndTarget) {
  EXPECT_EQ(header(one("curl -r 0-99 h"), "Range"), "bytes=0-99");
  EXPECT_EQ(header(one("curl -r 100 h"), "Range"), "bytes=100-");  // curl adds the dash
  EXPECT_EQ(header(one("curl -H 'Range: x' -r 1-2 h"), "Range"), "x");
  EXPECT_EQ(one("curl --url-query 'a=b&c/d é~*' --url-query x --url-query '=y z' --url-query "
                "'+v=%41' 'h/q?k=1'")
                .target,
            "/q?k=1&a=b%26c%2fd+%c3%a9~%2a&x&y+z&v=%41");
  EXPECT_EQ(one("curl --url-query n@note.txt -G -d c=d h/q").target, "/q?n=one%0d%0atwo%0a&c=d");
  EXPECT_EQ(header(one("curl -u a:b --oauth2-bearer TOK h"), "Authorization"), "Bearer TOK");
  EXPECT_EQ(header(one("curl --oauth2-bearer TOK -u a:b h"), "Authorization"), "Bearer TOK");
  // --digest: no credentials until the server's challenge, which the client answers.
  const auto parsed = parse("curl --digest -u a:b:c h");
  EXPECT_EQ(header(parsed.steps.at(0), "Authorization"), "(none)");
  EXPECT_TRUE(parsed.warnings.empty());
  ASSERT_TRUE(parsed.steps.at(0).digest);
  EXPECT_EQ(parsed.steps.at(0).digest->user, "a");
  EXPECT_EQ(parsed.steps.at(0).digest->password, "b:c");
  EXPECT_FALSE(one("curl -u a:b h").digest);
  EXPECT_EQ(one("curl -X OPTIONS --request-target '*' h/x").target, "*");
  EXPECT_EQ(one("curl --path-as-is h/a/../b/./c").target, "/a/../b/./c");
  EXPECT_EQ(one("curl h/a/../b/./c").target, "/b/c");
  const auto secure = one("curl --proto-default https h/x");
  EXPECT_EQ(secure.origin.scheme, model::Scheme::https);
  EXPECT_EQ(secure.origin.port, 443);
  EXPECT_EQ(one("curl -0 h").http_version, model::HttpVersion::http1_0);
}

TEST_F(ToRequest, TimeConditions) {
  EXPECT_EQ(header(one("curl -z 'Sun, 06 Nov 1994 08:49:37 GMT' h"), "If-Modified-Since"),
            "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(header(one("curl -z '-1 Jan 2000' h"), "If-Unmodified-Since"),
            "Sat, 01 Jan 2000 00:00:00 GMT");
  std::filesystem::last_write_time(dir_ / "note.txt",
                                   std::filesystem::file_time_type::clock::from_sys(
                                       std::chrono::sys_seconds(std::chrono::seconds(1709633472))));
  EXPECT_EQ(header(one("curl -z note.txt h"), "If-Modified-Since"),
            "Tue, 05 Mar 2024 10:11:12 GMT");
  const auto parsed = parse("curl -z '2023-01-20' h");  // curl reads no date there
  EXPECT_EQ(parsed.steps.at(0).headers.size(), 0U);
  EXPECT_NE(parsed.warnings.at(0).find("neither a date curl reads nor a file"), std::string::npos);
  EXPECT_EQ(one("curl -z '=1 Jan 2000' h").headers.size(), 0U);
}

TEST_F(ToRequest, RoutesFromResolveConnectToAndUnixSockets) {
  auto r = one("curl --resolve example.com:80:127.0.0.2 http://Example.com/");
  EXPECT_EQ(r.origin.host, "Example.com");
  EXPECT_EQ(r.route.host, "127.0.0.2");
  EXPECT_EQ(r.route.port, 0);
  EXPECT_EQ(one("curl --resolve example.com:81:127.0.0.2 http://example.com/").route,
            model::Route{});
  EXPECT_EQ(one("curl --resolve '*:443:[::1]' https://a/").route.host, "::1");
  r = one("curl --connect-to a:80:b:8080 --connect-to ::c: http://a/ http://x:90/");
  EXPECT_EQ(r.route.host, "b");
  EXPECT_EQ(r.route.port, 8080);
  r = parse("curl --connect-to a:80:b:8080 --connect-to ::c: http://a/ http://x:90/").steps.at(1);
  EXPECT_EQ(r.route.host, "c");
  EXPECT_EQ(r.route.port, 0);
  r = one("curl --connect-to ::b:8080 --resolve b:8080:10.0.0.1 http://a/");
  EXPECT_EQ(r.route.host, "10.0.0.1");  // --resolve applies to where --connect-to goes
  EXPECT_EQ(r.route.port, 8080);
  EXPECT_EQ(one("curl --unix-socket /run/s.sock http://a/").route.unix_socket, "/run/s.sock");
  EXPECT_EQ(one("curl --abstract-unix-socket s http://a/").route.unix_socket,
            std::string("\0s", 2));
}

// curl 7.88.1 against a capture server: Host, Authorization, Range, User-Agent, Accept,
// Accept-Encoding, Referer, Cookie, the -H lines as typed, Content-Type (curl_replay_test.sh
// checks the bytes).
TEST_F(ToRequest, HeadersGoInCurlsOrderAndTheFilesCase) {
  const auto r =
      one("curl http://h/ -H 'x-custom: 1' -e http://ref/ -b c=1 -u u:p -r 0-9 --compressed -A UA "
          "-H 'accept-language: en' -d a=b");
  std::vector<std::string> names;
  for (const auto& [name, value] : r.headers) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"Authorization", "Range", "User-Agent",
                                             "Accept-Encoding", "Referer", "Cookie", "x-custom",
                                             "accept-language", "Content-Type"}));
  EXPECT_EQ(r.defaults_at, 3U);      // stampede's Accept after -A's User-Agent, as curl's
  EXPECT_EQ(r.body_headers_at, 8U);  // Content-Type after Content-Length, as curl's
  const auto plain = one("curl http://h/ -H 'user-agent: UA2' -H 'X-Z: 2' --compressed");
  names.clear();
  for (const auto& [name, value] : plain.headers) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"Accept-Encoding", "user-agent", "X-Z"}));
  EXPECT_EQ(plain.defaults_at, 0U);
  EXPECT_EQ(plain.body_headers_at, 3U);
}

TEST_F(ToRequest, BadInputIsLocated) {
  EXPECT_EQ(error_of("curl -H 'A: 1'"), "t.curl:1:1: no URL in this curl command");
  EXPECT_TRUE(error_of("\n  curl -d @nope h").starts_with("t.curl:2:11: cannot read file 'nope'"));
  EXPECT_TRUE(error_of("curl -d @/dev/zero h").starts_with("t.curl:1:9: cannot read file"));
  EXPECT_EQ(error_of("curl -d @- h"),
            "t.curl:1:9: this command reads standard input (-), which the file does not give it "
            "(feed it with <<< 'text', a here-document or < file)");
  EXPECT_EQ(error_of("curl --resolve h:80 h"),
            "t.curl:1:16: bad --resolve 'h:80' (expected HOST:PORT:ADDRESS)");
  EXPECT_EQ(error_of("curl --connect-to a:1:b h"),
            "t.curl:1:19: bad --connect-to 'a:1:b' (expected HOST1:PORT1:HOST2:PORT2, fields may "
            "be empty)");
  EXPECT_EQ(error_of("curl --connect-to ::b:99999 h"),
            "t.curl:1:19: bad port in --connect-to '::b:99999'");
  EXPECT_TRUE(error_of("curl ftp://h/").starts_with("t.curl:1:6: unsupported scheme 'ftp'"));
  for (const char* bad : {"soon", "-1", "nan", "inf", "1e300"}) {
    EXPECT_EQ(error_of("curl -m " + std::string(bad) + " h"),
              "t.curl:1:9: bad --max-time '" + std::string(bad) +
                  "' (expected a number of seconds, at most a year)");
  }
  EXPECT_EQ(error_of("curl -H $'A: 1\\r\\nB: 2' h"),
            "t.curl:1:9: header 'A: 1...' contains a line break");
  EXPECT_EQ(error_of("curl -X 'GET /x' h"), "t.curl:1:9: bad method 'GET /x' (-X takes one word)");
  // Every option whose value goes into a header or the request line as typed, not only -H.
  const std::string split = " (it would add a header line or split the request)";
  for (const auto* option : {"-A", "-e", "-b", "-r", "--oauth2-bearer"}) {
    const auto at = std::to_string(7 + std::string(option).size());
    EXPECT_EQ(error_of("curl " + std::string(option) + " $'v\\r\\nX-Inj: 2' h"),
              "t.curl:1:" + at + ": " + option + " 'v...' contains a line break" + split);
  }
  EXPECT_EQ(error_of("curl -u $'u\\n:p' --digest h"),
            "t.curl:1:9: -u 'u...' contains a line break" + split);
  EXPECT_EQ(error_of("curl --request-target $'x\\r\\nZ' h"),
            "t.curl:1:23: --request-target 'x...' contains a line break" + split);
  EXPECT_EQ(error_of("curl --request-target 'x y' h"),
            "t.curl:1:23: --request-target 'x y' contains a space (it would split the request "
            "line; write it %20)");
  EXPECT_EQ(error_of("curl --url-query '+a b' h"),
            "t.curl:1:18: --url-query '+a b' contains a space (it would split the request line; "
            "write it %20)");
  EXPECT_EQ(error_of("curl -H 'Bad Name: 1' h"),
            "t.curl:1:9: bad header name 'Bad Name' (a header name is one word)");
  EXPECT_EQ(error_of("curl -H 'A B;' h"),
            "t.curl:1:9: bad header name 'A B' (a header name is one word)");
  EXPECT_NE(error_of("curl -d a -F b=1 h").find("1:1: curl refuses"), std::string::npos);
  EXPECT_NE(error_of("curl -I -d a h").find("1:1: curl refuses"), std::string::npos);
  EXPECT_NE(error_of("curl -F nameonly h").find("1:9: form part 'nameonly' has no '='"),
            std::string::npos);
}

}  // namespace
}  // namespace stampede::curl
