// The events of event streams (Server-Sent Events) in a stretch of a run: mergeable figures.
#pragma once

#include <cstdint>

#include "model/result.hpp"
#include "server/statistics/histogram.hpp"

namespace stampede::statistics {

/// What a stream's reader feels: how long its first event took, the gaps between the events
/// after it, and the events its reconnects lost; of a client-streaming call's messages sent,
/// those whose call ended without its answer. The events themselves are the run's requests.
struct EventCounts {
  Histogram first_event;     ///< a stream's request (connect included) -> its first event
  Histogram gap;             ///< a stream's event -> its next, for events received whole
  std::uint64_t events = 0;  ///< events received (whole, accepted or not by the checks)
  std::uint64_t lost = 0;    ///< events reconnects skipped, by the streams' ids
  /// Messages counted as sent (in events) on client-streaming calls that ended without their
  /// answer: cut by the run's stop, failed or timed out. Nothing says the server read them.
  std::uint64_t unanswered = 0;

  /// Counts `result` if it is an event of a stream.
  void add(const model::Result& result) {
    if (result.stream_event == model::StreamEvent::none) return;
    if (!model::whole_exchange(result.error)) return;
    ++events;
    lost += result.events_lost;
    const auto ns = [](std::chrono::nanoseconds d) {
      return d.count() < 0 ? 0 : static_cast<std::uint64_t>(d.count());
    };
    if (result.stream_event == model::StreamEvent::first) {
      first_event.record(ns(result.first_event));
    } else {
      gap.record(ns(result.latency));
    }
  }
  void merge(const EventCounts& other) {
    first_event.merge(other.first_event);
    gap.merge(other.gap);
    events += other.events;
    lost += other.lost;
    unanswered += other.unanswered;
  }
  void reset() {
    first_event.reset();
    gap.reset();
    events = lost = unanswered = 0;
  }

  friend bool operator==(const EventCounts&, const EventCounts&) = default;
};

}  // namespace stampede::statistics
