// stream_text(): the figures of a run over streams, named for their unit.
#include "report/stream_text.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace stampede::report {
namespace {

using namespace std::chrono_literals;

/// A run that read (or sent) 4 units of `unit` on one stream, 10 ms apart, in 1 s.
statistics::Summary streamed(const std::string& unit) {
  statistics::Summary summary;
  summary.info.stream_unit = unit;
  summary.elapsed = 1s;
  summary.total.long_lived.open(0s);
  for (int i = 0; i < 4; ++i) {
    model::Result r;
    r.stream_event = i == 0 ? model::StreamEvent::first : model::StreamEvent::next;
    r.first_event = 2ms;
    r.latency = 10ms;
    summary.total.add(r);
  }
  return summary;
}

TEST(StreamText, FiguresAreNamedForTheirUnit) {
  const auto events = stream_text(streamed("event"));
  EXPECT_NE(events.find("Event streams:          1 opened"), std::string::npos) << events;
  EXPECT_NE(events.find("Events:                 4 received, 4.00 [#/sec], 0 lost"),
            std::string::npos)
      << events;
  const auto chunks = stream_text(streamed("chunk"));
  EXPECT_NE(chunks.find("Streams:                1 opened"), std::string::npos) << chunks;
  EXPECT_NE(chunks.find("Chunks:                 4 received, 4.00 [#/sec]\n"), std::string::npos)
      << chunks;
  EXPECT_NE(chunks.find("Gap between chunks:"), std::string::npos) << chunks;
  // A client-streaming call's units are the messages it sent.
  // Those of calls that ended without their answer (cut, failed) are said apart.
  auto cut = streamed("sent message");
  cut.total.events.unanswered = 3;
  const auto sent = stream_text(cut);
  EXPECT_NE(sent.find("Messages:               4 sent, 4.00 [#/sec], 3 of them on calls that "
                      "ended without their answer\n"),
            std::string::npos)
      << sent;
  EXPECT_NE(sent.find("Time to first message:  p50 2.0"), std::string::npos) << sent;
  EXPECT_EQ(sent.find("4 received"), std::string::npos) << sent;
}

}  // namespace
}  // namespace stampede::report
