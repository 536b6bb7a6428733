// stream_text(): what a reader of a run over streams (events, gRPC messages, chunks) needs beside
// ab's request figures.
#include "report/stream_text.hpp"

#include <algorithm>
#include <cctype>

#include "report/report_format.hpp"

namespace stampede::report {

using statistics::Histogram;
namespace {

/// "p50 10.012, p90 10.104, p99 10.890, max 12.003 ms".
std::string event_spread(const Histogram& histogram) {
  return "p50 " + ms_text(histogram.percentile(50)) + ", p90 " + ms_text(histogram.percentile(90)) +
         ", p99 " + ms_text(histogram.percentile(99)) + ", max " + ms_text(histogram.max()) + " ms";
}

std::string failures_text(const statistics::ConnectionCounts& streams) {
  std::string kinds;
  for (const model::ErrorKind kind : model::failure_kinds) {
    if (const auto n = streams.failed[static_cast<std::size_t>(kind)]; n > 0) {
      kinds += (kinds.empty() ? "" : ", ") + std::string(model::to_string(kind)) + ": " +
               std::to_string(n);
    }
  }
  return kinds.empty() ? "" : " (" + kinds + ")";
}

}  // namespace

std::string stream_text(const statistics::Summary& summary) {
  const auto& total = summary.total;
  const auto& events = total.events;
  if (events.events == 0 && !summary.info.reads_streams()) return "";
  // An event stream's figures keep their names; a gRPC call's messages and a body's chunks
  // are named for what they are.
  const std::string named = summary.info.stream_unit.empty() ? "event" : summary.info.stream_unit;
  // A client-streaming call's units are the messages it sent ("sent message").
  const bool sent = named.starts_with("sent ");
  const std::string unit = sent ? named.substr(5) : named;
  const bool events_read = unit == "event";
  const auto& streams = total.long_lived;
  const auto open = streams.opened - std::min(streams.ended, streams.opened);
  std::string text = aligned_line(
      events_read ? "Event streams:" : "Streams:",
      std::to_string(streams.opened) + " opened, " + std::to_string(streams.closed_by_server) +
          " ended by the server, " + std::to_string(streams.failures()) + " failed" +
          failures_text(streams) + ", " + std::to_string(open) + " open at the end");
  const double seconds = to_seconds(summary.elapsed);
  std::string plural = unit + "s";
  plural[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(plural[0])));
  text += aligned_line(
      plural + ":",
      std::to_string(events.events) + (sent ? " sent, " : " received, ") +
          format_fixed(ratio(static_cast<double>(events.events), seconds), 2) + " [#/sec]" +
          (events_read ? ", " + std::to_string(events.lost) + " lost to reconnects (by id)" : "") +
          (sent ? ", " + std::to_string(events.unanswered) +
                      " of them on calls that ended without their answer"
                : ""));
  if (events.first_event.count() > 0) {
    text += aligned_line("Time to first " + unit + ":",
                         event_spread(events.first_event) + " (the request, connect included)");
  }
  if (events.gap.count() > 0) {
    text += aligned_line("Gap between " + unit + "s:", event_spread(events.gap));
  }
  if (streams.opened > 0) {
    text += aligned_line("Bytes per stream:",
                         format_fixed(ratio(static_cast<double>(total.bytes_received),
                                            static_cast<double>(streams.opened)),
                                      0) +
                             " (mean received, heads and framing included)");
  }
  return text;
}

}  // namespace stampede::report
