// Mergeable counters for a stretch of a run: one per thread, shipped and summed by the collector.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "model/error_kind.hpp"
#include "model/result.hpp"
#include "server/statistics/connections.hpp"
#include "server/statistics/event_counts.hpp"
#include "server/statistics/histogram.hpp"
#include "server/statistics/rate_counts.hpp"
#include "server/statistics/value_counts.hpp"

namespace stampede::statistics {

/// Everything the reports need, kept so that merge(a, merge(b, c)) == merge(merge(a, b), c).
struct Metrics {
  std::uint64_t succeeded = 0;
  std::uint64_t failed = 0;
  std::array<std::uint64_t, model::error_kind_count> errors{};  ///< indexed by ErrorKind
  std::map<int, std::uint64_t> status_codes;                    ///< every whole response, by status
  /// Responses rejected by the verifier's check N (1 the first; --expect-*), by N.
  std::map<int, std::uint64_t> failed_checks;
  std::map<int, std::uint64_t> grpc_codes;  ///< gRPC calls that ended with a status, by code
  Histogram latency;  ///< exchange time of every request that got a whole response (ok or verify)
  Histogram connect;  ///< requests that opened a connection, and connections opened apart
  Histogram processing;  ///< ab's Processing: latency minus connect, where latency is recorded
  Histogram waiting;     ///< only requests that got a first response byte
  /// -m: requests that went as streams on shared connections, from their hand-over to the
  /// connection to their stream's opening (the wait for a free stream)
  Histogram queueing;
  /// --digest: the round trip to the 401 each answered request took first (part of latency).
  Histogram challenge;
  std::uint64_t bytes_received = 0;
  std::uint64_t body_bytes = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t connections_opened = 0;
  /// Those connections by what they speak (HTTP/1.1, h2c, h2, WebSocket), indexed by Negotiated.
  std::array<std::uint64_t, model::negotiated_count> negotiated{};
  std::uint64_t keep_alive_responses = 0;
  ValueCounts<std::string> servers;             ///< Server headers of whole responses, by value
  ValueCounts<std::uint64_t> document_lengths;  ///< body lengths of successes, by length
  ConnectionCounts long_lived;                  ///< connections opened apart (WebSocket)
  StreamCounts streams;                         ///< -m: streams on shared connections
  EventCounts events;                           ///< event streams' events (SSE)
  RateCounts rate;                              ///< --rate: service time, lag, capped, missed

  /// Count one request.
  void add(const model::Result& result);
  /// Count a connection opened apart from any request (a WebSocket's), `at` since the run's
  /// start: its connect time.
  void add_connection(const model::ExchangeRecord& opened, std::chrono::nanoseconds at);
  /// Count one response's Server header (an empty one is not counted).
  void note_server(std::string_view server);
  /// Add `other` into this.
  void merge(const Metrics& other);
  /// Forget everything, keeping the histograms' memory.
  void reset();

  [[nodiscard]] std::uint64_t completed() const { return succeeded + failed; }
  /// Bytes this holds, counts and map nodes estimated, for sizing per-thread and per-step state.
  [[nodiscard]] std::size_t memory_bytes() const;
  /// ab's "Server Software": the most frequent Server header, so the report does not depend on
  /// which thread's response came first; "" when none arrived.
  [[nodiscard]] const std::string& server_software() const { return servers.most_frequent(); }
  /// ab's "Document Length": the most frequent body length of a success; 0 when none.
  [[nodiscard]] std::uint64_t document_length() const { return document_lengths.most_frequent(); }
  [[nodiscard]] std::uint64_t errors_of(model::ErrorKind kind) const {
    return errors[static_cast<std::size_t>(kind)];
  }

  /// Every field equal, histograms included.
  friend bool operator==(const Metrics&, const Metrics&) = default;
};

}  // namespace stampede::statistics
