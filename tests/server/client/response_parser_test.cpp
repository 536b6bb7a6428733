// ResponseParser tests: framing (RFC 9112 6.3), reuse, errors, and bytes arriving in any split.
#include "server/client/response_parser.hpp"

#include <gtest/gtest.h>

#include <boost/beast/http/error.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede::client {
namespace {

using Error = boost::beast::http::error;

/// What a parse came to: the parser's verdicts and the bytes it left for the next response.
struct Parsed {
  model::Response response;
  boost::system::error_code error;
  bool done = false;
  bool keep_alive = false;
  std::string left;  ///< bytes after the response (a pipelined next response)
};

/// Feeds `wire` to a parser `step` bytes at a time, as the client does: the bytes a put()
/// leaves unused stay at the front of the buffer for the next put(). `eof`: the server closes
/// after the last byte.
Parsed parse_response(const std::string& wire, std::size_t step = 1 << 20, bool head = false,
                      bool eof = false) {
  Parsed parsed;
  ResponseParser parser;
  parser.start(parsed.response, true, head);
  std::string buffer;
  for (std::size_t at = 0; at < wire.size() && !parser.done() && !parsed.error; at += step) {
    buffer += wire.substr(at, step);
    buffer.erase(0, parser.put(buffer, parsed.error));
  }
  if (eof && !parsed.error && !parser.done()) parser.put_eof();
  parsed.done = parser.done();
  parsed.keep_alive = parser.keep_alive();
  parsed.left = buffer;
  return parsed;
}

const std::string ok =
    "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nContent-Type: text/html\r\n"
    "Content-Length: 5\r\nConnection: keep-alive\r\n\r\nhello";

TEST(ResponseParser, ContentLengthInOnePiece) {
  const auto parsed = parse_response(ok);
  ASSERT_FALSE(parsed.error) << parsed.error.message();
  EXPECT_TRUE(parsed.done);
  EXPECT_EQ(parsed.response.status, 200);
  EXPECT_EQ(parsed.response.server, "nginx/1.22.1");
  EXPECT_EQ(parsed.response.body, "hello");
  EXPECT_EQ(parsed.response.body_bytes, 5U);
  EXPECT_TRUE(parsed.keep_alive);
  EXPECT_EQ(parsed.left, "");
}

TEST(ResponseParser, AnySplitOfTheBytesGivesTheSameResponse) {
  const std::string chunked =
      "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nLocation: /next\r\n\r\n"
      "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n";
  for (const auto& wire : {ok, chunked}) {
    const auto whole = parse_response(wire);
    for (std::size_t step = 1; step < 9; ++step) {
      const auto split = parse_response(wire, step);
      ASSERT_FALSE(split.error) << "step " << step << ": " << split.error.message();
      EXPECT_TRUE(split.done) << "step " << step;
      EXPECT_EQ(split.response.body, whole.response.body) << "step " << step;
      EXPECT_EQ(split.response.status, whole.response.status);
    }
  }
  const auto parsed = parse_response(chunked);
  EXPECT_EQ(parsed.response.body, "hello world");
  EXPECT_EQ(parsed.response.location, "/next");
  EXPECT_EQ(
      parse_response("HTTP/1.1 200 OK\r\nContent-Encoding:  gzip \r\nContent-Length: 0\r\n\r\n")
          .response.content_encoding,
      "gzip");
  EXPECT_TRUE(parsed.keep_alive);
}

TEST(ResponseParser, PipelinedBytesAreLeftForTheNextResponse) {
  const auto parsed = parse_response(ok + "HTTP/1.1 204 No Content\r\n\r\n");
  EXPECT_TRUE(parsed.done);
  EXPECT_EQ(parsed.response.body, "hello");
  EXPECT_EQ(parsed.left, "HTTP/1.1 204 No Content\r\n\r\n");
}

TEST(ResponseParser, BodyWithoutLengthEndsWhenTheServerCloses) {
  const std::string wire = "HTTP/1.1 200 OK\r\n\r\nuntil the end";
  EXPECT_FALSE(parse_response(wire).done);
  const auto parsed = parse_response(wire, 3, false, true);
  EXPECT_TRUE(parsed.done);
  EXPECT_EQ(parsed.response.body, "until the end");
  EXPECT_FALSE(parsed.keep_alive);
}

TEST(ResponseParser, ResponsesWithoutBody) {
  const auto head = parse_response("HTTP/1.1 200 OK\r\nContent-Length: 612\r\n\r\n", 1 << 20, true);
  EXPECT_TRUE(head.done);
  EXPECT_EQ(head.response.body_bytes, 0U);
  EXPECT_TRUE(head.keep_alive);
  for (const char* status : {"204 No Content", "304 Not Modified", "103 Early Hints"}) {
    const auto parsed = parse_response(std::string("HTTP/1.1 ") + status + "\r\n\r\n");
    EXPECT_TRUE(parsed.done) << status;
    EXPECT_TRUE(parsed.keep_alive) << status;
  }
  EXPECT_FALSE(parse_response("HTTP/1.1 101 Switching Protocols\r\n\r\n").keep_alive);
}

TEST(ResponseParser, ReuseFollowsVersionAndConnection) {
  const std::string empty = "Content-Length: 0\r\n\r\n";
  EXPECT_FALSE(parse_response("HTTP/1.0 200 OK\r\n" + empty).keep_alive);
  EXPECT_TRUE(parse_response("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\n" + empty).keep_alive);
  EXPECT_FALSE(
      parse_response("HTTP/1.1 200 OK\r\nconnection: upgrade, CLOSE\r\n" + empty).keep_alive);
  EXPECT_TRUE(parse_response("HTTP/1.1 200\r\nCONTENT-LENGTH:  0 \r\n\r\n").done);
}

TEST(ResponseParser, TransferEncodingOverridesContentLength) {
  const auto both = parse_response(
      "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
      "2\r\nok\r\n0\r\n\r\n");
  EXPECT_TRUE(both.done);
  EXPECT_EQ(both.response.body, "ok");
  EXPECT_FALSE(both.keep_alive);  // both framings: not reused
  const auto gzip =
      parse_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz", 4, false, true);
  EXPECT_TRUE(gzip.done);
  EXPECT_EQ(gzip.response.body, "zz");
  EXPECT_FALSE(gzip.keep_alive);
}

TEST(ResponseParser, AHeadInPartsIsReadAgainWhole) {
  // The same Content-Length twice is fine; a head read again must not see it as a conflict.
  const auto parsed =
      parse_response("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok", 7);
  ASSERT_FALSE(parsed.error) << parsed.error.message();
  EXPECT_EQ(parsed.response.body, "ok");
}

TEST(ResponseParser, MalformedResponsesAreErrors) {
  const std::string end = "\r\n\r\n";
  const std::pair<std::string, Error> cases[] = {
      {"this is not http" + end, Error::bad_version},
      {"HTTP/2.0 200 OK" + end, Error::bad_version},
      {"HTTP/1.1 2x0 OK" + end, Error::bad_status},
      {"HTTP/1.1 200OK" + end, Error::bad_status},
      {"HTTP/1.1 200 OK\r\nBad Name: x" + end, Error::bad_field},
      {"HTTP/1.1 200 OK\r\nNo colon" + end, Error::bad_field},
      {"HTTP/1.1 200 OK\r\n: empty name" + end, Error::bad_field},
      {"HTTP/1.1 200 OK\nServer: x" + end, Error::bad_line_ending},
      {"HTTP/1.1 200 OK\r\nContent-Length: abc" + end, Error::bad_content_length},
      {"HTTP/1.1 200 OK\r\nContent-Length: -1" + end, Error::bad_content_length},
      {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2" + end,
       Error::bad_content_length},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked" + end + "zz\r\n", Error::bad_chunk},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked" + end + "2\r\nokX", Error::bad_chunk},
      {"HTTP/1.1 200 OK\r\nX: " + std::string(ResponseParser::head_limit, 'a') + end,
       Error::header_limit},
  };
  for (const auto& [wire, expected] : cases) {
    for (const std::size_t step : {std::size_t{1}, std::size_t{1} << 20}) {
      const auto parsed = parse_response(wire, step);
      EXPECT_EQ(parsed.error, expected) << wire.substr(0, 60) << " step " << step;
      EXPECT_FALSE(parsed.done);
    }
  }
}

/// RFC 9110 5.6.2 tchar, written out apart from the parser's table.
bool is_tchar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

TEST(ResponseParser, EveryByteAnywhereInALongNameIsTakenOrRefusedAsATokenSays) {
  // Names are scanned sixteen bytes at a time: each byte value, at each place of a name longer
  // than one such look, must count as the byte-by-byte table would have it.
  for (int value = 0; value < 256; ++value) {
    const auto byte = static_cast<char>(value);
    if (byte == '\n') continue;  // it ends the line: a line ending's error, not a name's
    for (std::size_t at = 0; at < 20; ++at) {
      std::string name(24, 'x');
      name[at] = byte;
      const auto parsed =
          parse_response("HTTP/1.1 200 OK\r\n" + name + ": v\r\nContent-Length: 0\r\n\r\n");
      // A colon ends the name early (a shorter name, whose value holds the rest): only an empty
      // name is refused. A line that starts with a space or a tab continues the field before
      // (obs-fold), which is passed over.
      const bool folded = at == 0 && (byte == ' ' || byte == '\t');
      const bool taken = folded || (byte == ':' ? at > 0 : is_tchar(byte));
      EXPECT_EQ(parsed.done, taken) << "byte " << value << " at " << at;
      EXPECT_EQ(parsed.error, taken ? boost::system::error_code() : Error::bad_field)
          << "byte " << value << " at " << at;
    }
  }
}

TEST(ResponseParser, TooManyFieldLinesExceedTheHeadLimit) {
  std::string wire = "HTTP/1.1 200 OK\r\n";
  while (wire.size() <= ResponseParser::head_limit) wire += "X-Filler: 0123456789\r\n";
  EXPECT_EQ(parse_response(wire + "\r\n").error, Error::header_limit);
}

TEST(ResponseParser, KeepsTheWantedHeadersOnly) {
  Parsed parsed;
  ResponseParser parser;
  parsed.response.wanted_headers = {"set-cookie", "x-id"};
  parser.start(parsed.response, false, false);
  const std::string wire =
      "HTTP/1.1 200 OK\r\nSET-COOKIE:  a=1 \r\nX-Idle: no\r\nx-id:\t7\r\nSet-Cookie: b=2\r\n"
      "Content-Length: 0\r\n\r\n";
  EXPECT_EQ(parser.put(wire, parsed.error), wire.size());
  ASSERT_FALSE(parsed.error) << parsed.error.message();
  const std::vector<std::pair<std::string, std::string>> kept = {
      {"set-cookie", "a=1"}, {"x-id", "7"}, {"set-cookie", "b=2"}};
  EXPECT_EQ(parsed.response.headers, kept);
}

TEST(ResponseParser, NamesAreReadWithoutCaseAtEveryLength) {
  // iequals() compares words of 8 and 4 bytes, the last one overlapping: a name that differs
  // only in its last byte, or only in its first, is still another name.
  EXPECT_FALSE(parse_response("HTTP/1.1 200 OK\r\nConnectioN: close\r\n\r\n").keep_alive);
  EXPECT_TRUE(parse_response("HTTP/1.1 200 OK\r\nConnectiom: close\r\nContent-Length: 0\r\n\r\n")
                  .keep_alive);
  EXPECT_EQ(
      parse_response("HTTP/1.1 200 OK\r\nSERVER: s\r\nContent-Length: 0\r\n\r\n").response.server,
      "s");
  EXPECT_EQ(
      parse_response("HTTP/1.1 200 OK\r\nServeR: s\r\nContent-Length: 0\r\n\r\n").response.server,
      "s");
  EXPECT_EQ(
      parse_response("HTTP/1.1 200 OK\r\nTerver: s\r\nContent-Length: 0\r\n\r\n").response.server,
      "");
  EXPECT_EQ(parse_response("HTTP/1.1 200 OK\r\ncontent-lengtH: 2\r\n\r\nokNEXT").left, "NEXT");
  EXPECT_EQ(parse_response("HTTP/1.1 200 OK\r\nContent-Lengti: 2\r\n\r\nok", 1 << 20, false, true)
                .response.body,
            "ok");  // not a length: the body runs to the end of the connection
  EXPECT_FALSE(
      parse_response("HTTP/1.1 200 OK\r\nConnection: Upgrade,  Close \r\nContent-Length: 0\r\n\r\n")
          .keep_alive);
  EXPECT_TRUE(
      parse_response("HTTP/1.0 200 OK\r\nConnection: KEEP-ALIVE\r\nContent-Length: 0\r\n\r\n")
          .keep_alive);
}

TEST(ResponseParser, EndOfConnectionCutsAFramedBodyShort) {
  ResponseParser parser;
  model::Response response;
  parser.start(response, false, false);
  boost::system::error_code error;
  const std::string partial = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123";
  EXPECT_EQ(parser.put(partial, error), partial.size());
  EXPECT_TRUE(parser.got_some());
  EXPECT_FALSE(parser.put_eof());
  EXPECT_EQ(response.body_bytes, 4U);
  EXPECT_EQ(response.body, "");  // not kept unless asked
}

}  // namespace
}  // namespace stampede::client
