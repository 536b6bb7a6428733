// SseParser tests: the text/event-stream grammar, in any split of the bytes, and its faults.
#include "server/client/sse_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace stampede::client {
namespace {

/// What the events of a stream came to.
struct StreamParsed {
  std::vector<std::string> data;   ///< each event's data
  std::vector<std::string> types;  ///< and type
  std::vector<std::string> ids;    ///< the last event id as each was dispatched
  SseFault fault = SseFault::none;
  std::size_t not_utf8 = 0;  ///< events dropped as not UTF-8
};

/// Feeds `stream` to a parser `step` bytes at a time, as the client does: what a put() leaves
/// stays at the front of the buffer for the next.
StreamParsed parse_stream(const std::string& stream, std::size_t step = 1 << 20,
                          std::size_t max_line = 1024) {
  StreamParsed parsed;
  SseParser parser(max_line);
  std::string buffer;
  for (std::size_t at = 0; at < stream.size() || !buffer.empty(); at += step) {
    if (at < stream.size()) buffer += stream.substr(at, step);
    while (!buffer.empty()) {
      const auto used = parser.put(buffer);
      buffer.erase(0, used);
      if (const auto event = parser.event()) {
        parsed.data.emplace_back(*event);
        parsed.types.emplace_back(parser.type());
        parsed.ids.push_back(parser.last_event_id());
      } else if (parser.fault() == SseFault::not_utf8) {
        ++parsed.not_utf8;
      } else if (parser.fault() != SseFault::none) {
        parsed.fault = parser.fault();
        return parsed;
      } else if (used == 0) {
        break;  // more bytes needed
      }
    }
  }
  return parsed;
}

TEST(SseParser, EventsOfEveryLineEndInEverySplit) {
  for (const std::string eol : {"\n", "\r\n", "\r"}) {
    const auto stream = ": hello" + eol + "retry: 250" + eol + eol + "id: 1" + eol + "event: tick" +
                        eol + "data: {\"seq\":1}" + eol + eol + "data:two" + eol + "data" + eol +
                        "data:  lines" + eol + eol;
    for (const std::size_t step : {1U, 2U, 3U, 7U, 1000U}) {
      const auto parsed = parse_stream(stream, step);
      ASSERT_EQ(parsed.data.size(), 2U) << "step " << step;
      EXPECT_EQ(parsed.data[0], "{\"seq\":1}");
      EXPECT_EQ(parsed.types[0], "tick");
      EXPECT_EQ(parsed.ids[0], "1");
      EXPECT_EQ(parsed.data[1], "two\n\n lines");  // one space after the colon is dropped
      EXPECT_EQ(parsed.types[1], "message");       // a type lasts one event
      EXPECT_EQ(parsed.ids[1], "1");               // an id lasts until the next
    }
  }
}

TEST(SseParser, RetryAndIdRules) {
  SseParser parser(1024);
  using namespace std::string_literals;
  const auto stream = "retry: 3000\nretry: 1x\nid: 7\n\nid: a\0b\nid\ndata: x\n\n"s;
  std::string_view rest = stream;
  while (!parser.event() && !rest.empty()) rest.remove_prefix(parser.put(rest));
  ASSERT_TRUE(parser.event());
  EXPECT_EQ(parser.retry(), std::chrono::milliseconds(3000));  // not a number: ignored
  EXPECT_EQ(parser.last_event_id(), "");  // an id with NUL is ignored; "id" alone empties it
}

TEST(SseParser, ABlockWithoutDataIsNoEventAndAnUnendedOneIsNone) {
  const auto parsed = parse_stream(": ping\n\nevent: x\nid: 3\n\ndata: late");
  EXPECT_TRUE(parsed.data.empty());
}

TEST(SseParser, AByteOrderMarkIsSkippedOnlyAtTheStart) {
  const auto parsed = parse_stream(
      "\xEF\xBB\xBF"
      "data: a\n\n",
      1);
  ASSERT_EQ(parsed.data.size(), 1U);
  EXPECT_EQ(parsed.data[0], "a");
}

TEST(SseParser, ALineOverTheLimitIsTooLong) {
  EXPECT_EQ(parse_stream("data: " + std::string(2000, 'x'), 100).fault, SseFault::too_long);
  EXPECT_EQ(parse_stream("data: " + std::string(2000, 'x') + "\n\n").fault, SseFault::too_long);
  std::string many;  // short lines whose data together is over the limit
  for (int i = 0; i < 200; ++i) many += "data: 0123456789\n";
  EXPECT_EQ(parse_stream(many + "\n").fault, SseFault::too_long);
}

TEST(SseParser, AnEventThatIsNotUtf8IsDroppedAndTheStreamGoesOn) {
  const auto parsed = parse_stream("data: \xFF\xFE\n\ndata: ok\n\n", 1);
  EXPECT_EQ(parsed.not_utf8, 1U);
  ASSERT_EQ(parsed.data.size(), 1U);
  EXPECT_EQ(parsed.data[0], "ok");
}

TEST(SseParser, RestartKeepsTheLastIdAndRetry) {
  SseParser parser(1024);
  std::string_view first = "retry: 10\nid: 4\ndata: a\n\ndata: half";
  while (!parser.event()) first.remove_prefix(parser.put(first));
  parser.put(first);
  parser.restart(1024);
  std::string_view second = "data: b\n\n";
  second.remove_prefix(parser.put(second));
  ASSERT_TRUE(parser.event());
  EXPECT_EQ(*parser.event(), "b");  // the half line of the stream before is gone
  EXPECT_EQ(parser.last_event_id(), "4");
  EXPECT_EQ(parser.retry(), std::chrono::milliseconds(10));
}

TEST(SseParser, Utf8Validation) {
  EXPECT_TRUE(valid_utf8("plain, \xC3\xA9t\xC3\xA9, \xE2\x82\xAC, \xF0\x9F\x98\x80"));
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(valid_utf8("\xE2\x82"));          // cut short
  EXPECT_FALSE(valid_utf8("\x80"));              // a continuation first
}

}  // namespace
}  // namespace stampede::client
