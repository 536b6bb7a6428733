// PacedBody: /sse's and /trickle's pieces byte for byte, their steps, padding, resume, faults.
#include "target_server/paced_body.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace stampede::target_server {
namespace {

/// Every byte of `piece`, copied out in bits of `bit` bytes (as HTTP/2's DATA frames take them).
std::string piece_bytes(const Piece& piece, std::size_t bit = 64 * 1024) {
  std::string bytes;
  std::string room(bit, '\0');
  for (std::size_t copied = 0; (copied = piece.copy(bytes.size(), room)) > 0;) {
    bytes.append(room, 0, copied);
  }
  return bytes;
}

/// All of a body's pieces, one string each.
std::vector<std::string> all_pieces(const PacedBody& body) {
  std::vector<std::string> pieces;
  for (std::uint64_t i = 0; i < body.pieces(); ++i) pieces.push_back(piece_bytes(body.piece(i)));
  return pieces;
}

TEST(TargetPacedBody, SseSendsTheOpeningThenEachEventWithTheLineEndAsked) {
  const std::vector<std::pair<std::string, std::string>> line_ends = {
      {"", "\n"}, {"&eol=lf", "\n"}, {"&eol=crlf", "\r\n"}, {"&eol=cr", "\r"}};
  for (const auto& [parameter, eol] : line_ends) {
    SCOPED_TRACE(parameter);
    const PacedBody body(route("/sse?events=3&interval=10&retry=2500" + parameter));
    EXPECT_EQ(all_pieces(body), (std::vector<std::string>{
                                    ": stampede" + eol + "retry: 2500" + eol + eol,
                                    "id: 1" + eol + R"(data: {"seq":1})" + eol + eol,
                                    "id: 2" + eol + R"(data: {"seq":2})" + eol + eol,
                                    "id: 3" + eol + R"(data: {"seq":3})" + eol + eol,
                                }));
    EXPECT_EQ(body.ending(), Ending::end);
  }
}

TEST(TargetPacedBody, PiecesAreDueOnAFixedScheduleFromTheFirstEvent) {
  const PacedBody sse(route("/sse?events=3&interval=10"));
  ASSERT_EQ(sse.pieces(), 4U);                             // the opening goes with event 1
  EXPECT_EQ(piece_bytes(sse.piece(0)), ": stampede\n\n");  // no retry: line unless asked
  const std::vector<std::uint64_t> steps = {sse.step(0), sse.step(1), sse.step(2), sse.step(3)};
  EXPECT_EQ(steps, (std::vector<std::uint64_t>{0, 0, 1, 2}));
  EXPECT_EQ(sse.due_after(3), std::chrono::milliseconds(20));
  const PacedBody trickle(route("/trickle?chunks=3&interval=7&size=5"));
  ASSERT_EQ(trickle.pieces(), 3U);
  EXPECT_EQ(trickle.due_after(2), std::chrono::milliseconds(14));
  EXPECT_EQ(all_pieces(trickle), (std::vector<std::string>(3, "xxxxx")));
  EXPECT_EQ(trickle.ending(), Ending::end);
  // No interval: everything at once.
  EXPECT_EQ(PacedBody(route("/sse?events=5&interval=0")).step(5), 0U);
}

TEST(TargetPacedBody, PadsTheDataToExactlyItsSize) {
  for (const std::uint64_t id : {1U, 9U, 10U, 123456U}) {
    for (const std::uint64_t size : {18U, 19U, 24U, 100U, 1024U * 1024U}) {
      const PacedBody body(route("/sse?events=1000000&size=" + std::to_string(size)));
      const auto event = piece_bytes(body.piece(id));
      const auto data = event.substr(event.find("data: ") + 6);
      const auto json = data.substr(0, data.size() - 2);  // without its two line ends
      const auto unpadded = R"({"seq":)" + std::to_string(id) + "}";
      if (size < unpadded.size() + 9) {  // no room for ,"pad":"": as it is
        EXPECT_EQ(json, unpadded) << id << " " << size;
      } else {
        EXPECT_EQ(json.size(), size) << id;
        const auto prefix = R"({"seq":)" + std::to_string(id) + R"(,"pad":")";
        EXPECT_TRUE(json.starts_with(prefix)) << json.substr(0, 40);
        EXPECT_EQ(json.find_first_not_of('x', prefix.size()), json.size() - 2);
        EXPECT_TRUE(json.ends_with(R"("})"));
      }
    }
  }
}

TEST(TargetPacedBody, CopiesAPieceInAnyBits) {
  const auto event = PacedBody(route("/sse?events=2&size=1000&eol=crlf")).piece(2);
  EXPECT_EQ(event.size(), piece_bytes(event).size());
  EXPECT_EQ(piece_bytes(event, 7), piece_bytes(event));  // bits across head, run and tail
  EXPECT_EQ(event.head(), "id: 2\r\ndata: {\"seq\":2,\"pad\":\"");
  EXPECT_EQ(event.tail(), "\"}\r\n\r\n");
  EXPECT_EQ(event.run(), 1000U - 18U);
}

TEST(TargetPacedBody, LastEventIdResumesAfterIt) {
  auto asked = route("/sse?events=4&interval=10");
  take_last_event_id(asked, "2");
  const PacedBody body(asked);
  EXPECT_EQ(all_pieces(body),
            (std::vector<std::string>{": stampede\n\n", "id: 3\ndata: {\"seq\":3}\n\n",
                                      "id: 4\ndata: {\"seq\":4}\n\n"}));
  EXPECT_EQ(body.step(2), 1U);     // the first event resumed goes at once
  take_last_event_id(asked, "9");  // past the end: the opening, then the end
  EXPECT_EQ(PacedBody(asked).pieces(), 1U);
}

TEST(TargetPacedBody, PerStreamEndsEachResponseAfterItsShareAndLastEventIdResumes) {
  auto asked = route("/sse?events=5&interval=10&per_stream=2");
  EXPECT_EQ(all_pieces(PacedBody(asked)),
            (std::vector<std::string>{": stampede\n\n", "id: 1\ndata: {\"seq\":1}\n\n",
                                      "id: 2\ndata: {\"seq\":2}\n\n"}));
  take_last_event_id(asked, "4");  // the last one: what is left is fewer than per_stream
  EXPECT_EQ(all_pieces(PacedBody(asked)),
            (std::vector<std::string>{": stampede\n\n", "id: 5\ndata: {\"seq\":5}\n\n"}));
  EXPECT_EQ(route("/sse?per_stream=x").status, 400U);
}

TEST(TargetPacedBody, FaultsComeAfterTheLastEvent) {
  const PacedBody stall(route("/sse?events=2&interval=10&fault=stall"));
  ASSERT_EQ(stall.pieces(), 4U);
  EXPECT_EQ(piece_bytes(stall.piece(3)), "data: half");  // no line end
  EXPECT_EQ(stall.step(3), stall.step(2));               // with the last event
  EXPECT_EQ(stall.ending(), Ending::stall);

  const PacedBody long_line(route("/sse?events=1&fault=long&eol=crlf"));
  const auto line = long_line.piece(2);
  EXPECT_EQ(line.head(), "data: ");
  EXPECT_EQ(line.run(), 10U * 1024 * 1024);
  EXPECT_EQ(line.tail(), "");
  EXPECT_EQ(long_line.ending(), Ending::stall);

  const PacedBody utf8(route("/sse?events=1&fault=utf8&eol=cr"));
  EXPECT_EQ(piece_bytes(utf8.piece(2)), "id: 2\rdata: \xFF\xFE\r\r");
  EXPECT_EQ(utf8.ending(), Ending::end);

  const PacedBody cut(route("/sse?events=2&fault=cut"));
  EXPECT_EQ(cut.pieces(), 3U);  // no piece of its own
  EXPECT_EQ(cut.ending(), Ending::cut);

  const PacedBody no_events(route("/sse?events=0&fault=stall"));
  EXPECT_EQ(no_events.pieces(), 2U);
  EXPECT_EQ(no_events.step(1), 0U);
}

}  // namespace
}  // namespace stampede::target_server
