// Mergeable counters for a stretch of a run: one per thread, shipped and summed by the collector.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "model/error_kind.hpp"
#include "model/result.hpp"
#include "server/statistics/histogram.hpp"

namespace stampede::statistics {

/// Everything the reports need, kept so that merge(a, merge(b, c)) == merge(merge(a, b), c).
struct Metrics {
  std::uint64_t succeeded = 0;
  std::uint64_t failed = 0;
  std::array<std::uint64_t, model::error_kind_count> errors{};  ///< indexed by ErrorKind
  std::map<int, std::uint64_t> status_codes;                    ///< every whole response, by status
  Histogram latency;  ///< exchange time of every request that got a whole response (ok or verify)
  Histogram connect;  ///< only requests that opened a connection
  Histogram processing;  ///< ab's Processing: latency minus connect, where latency is recorded
  Histogram waiting;     ///< only requests that got a first response byte
  std::uint64_t bytes_received = 0;
  std::uint64_t body_bytes = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t connections_opened = 0;
  std::uint64_t keep_alive_responses = 0;
  std::string server_software;        ///< Server header of the first response seen
  std::uint64_t document_length = 0;  ///< body length of the first success; valid if succeeded

  /// Count one request.
  void add(const model::Result& result);
  /// Keep `server` as server_software unless one is known already (Result carries no headers,
  /// so the worker passes the Server header here; an empty string changes nothing).
  void note_server(std::string_view server);
  /// Add `other` into this.
  void merge(const Metrics& other);
  /// Forget everything, keeping the histograms' memory.
  void reset();

  [[nodiscard]] std::uint64_t completed() const { return succeeded + failed; }
  [[nodiscard]] std::uint64_t errors_of(model::ErrorKind kind) const {
    return errors[static_cast<std::size_t>(kind)];
  }

  /// Every field equal, histograms included.
  friend bool operator==(const Metrics&, const Metrics&) = default;
};

}  // namespace stampede::statistics
