// A run as the reporters see it: totals, per-second history and what was tested.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/flow_mix.hpp"
#include "model/origin.hpp"
#include "model/protocol.hpp"
#include "server/statistics/capacity_plan.hpp"
#include "server/statistics/metrics.hpp"
#include "server/statistics/threshold.hpp"

namespace stampede::statistics {

/// What was tested, for the report's header lines.
struct RunInfo {
  model::Origin origin;  ///< the first step's
  std::string path;      ///< ab's "Document Path" (the first step's)
  std::uint64_t users = 0;
  std::uint64_t requests_per_user = 0;
  unsigned threads = 0;
  bool keep_alive = false;
  /// Each step of a flow, as "METHOD URL"; one entry for a single request.
  std::vector<std::string> steps;
  /// --rate: requests a second asked for (on average over the run when it moves); 0: the
  /// closed model (users back to back).
  double rate = 0;
  /// -z: how long requests were started for; 0: no window.
  std::chrono::nanoseconds window{0};
  /// The rate moves along --ramp or --stages (`rate` is then its mean).
  bool rate_moves = false;
  /// The verifier's checks (--expect-*), a rejection counted under the first that failed
  /// (Metrics::failed_checks); empty for a verifier of one check.
  std::vector<std::string> checks{};
  /// Each Second keeps its latency histogram (Plan::latency_per_second).
  bool latency_per_second = false;
  /// When the run started, by the wall clock: saved runs merge on it.
  std::chrono::system_clock::time_point started_at{};
  /// A weighted mix's flows among `steps` (a flow's rounds are its first step's requests);
  /// empty without a mix.
  std::vector<model::FlowShare> flows{};
  /// What the first step speaks: a WebSocket run's report counts messages, not HTTP responses.
  model::Protocol protocol = model::Protocol::http1;
  /// The users held their connections after their requests (--hold, --listen): the run lasted
  /// the hold, so its report gives connection figures rather than requests a second over it.
  bool held = false;
  /// Steps read streams (--sse, --stream): what each of their requests is, "event", "message"
  /// or "chunk" (model::stream_unit()); empty: responses are read whole.
  std::string stream_unit{};
  [[nodiscard]] bool reads_streams() const { return !stream_unit.empty(); }
};

/// One second of the run (one live row, one `per_second` JSON object).
struct Second {
  double elapsed_s = 0;  ///< since the start, at the end of this second
  std::uint64_t users_running = 0;
  std::uint64_t succeeded = 0;  ///< in this second only
  std::uint64_t failed = 0;     ///< in this second only
  double rps = 0;               ///< completed in this second / its length
  /// --rate: requests that came due in this second / its length (the rate asked, as it moves
  /// with --stages); 0 for other runs.
  double due_per_s = 0;
  double min_ms = 0, mean_ms = 0, max_ms = 0;  ///< this second's latencies
  double p50_ms = 0, p90_ms = 0, p99_ms = 0;
  std::map<int, std::uint64_t> status_codes;  ///< this second's responses
  /// Long-lived connections (WebSocket): open at the end of this second, opened, failed to
  /// open or lost, and closed by the server in this second; the generator's resident memory.
  std::uint64_t connections_open = 0;
  std::uint64_t connections_opened = 0;
  std::uint64_t connections_failed = 0;
  std::uint64_t connections_closed_by_server = 0;
  /// What the server sent (replies, --listen's pushes) this second, per second of it.
  double received_bytes_per_s = 0;
  std::uint64_t resident_bytes = 0;  ///< 0 when it could not be read
  /// This second's latencies, kept when RunInfo::latency_per_second (empty otherwise).
  Histogram latency;

  /// Sets min, mean, max and the percentiles from `of` (this second's latencies).
  void describe_latency(const Histogram& of);
};

/// Why the run ended: every user sent its requests, Ctrl-C, -timeout's hard stop, -z's time
/// was up (and the requests in flight then were all over), or --abort-on-fail stopped it once
/// a threshold could no longer pass.
enum class StopReason : unsigned char { completed, interrupted, time_limit, duration, aborted };

/// One shard of a run split over several processes (--shard I/N): which, and how it started.
struct ShardRecord {
  unsigned index = 0;                                  ///< from 0: --shard I/N is I - 1
  std::chrono::system_clock::time_point started_at{};  ///< when its users started, by its clock
  /// --start-at: when it was to start (its skew is started_at - start_at); empty: at once.
  std::optional<std::chrono::system_clock::time_point> start_at;
  StopReason stop_reason = StopReason::completed;  ///< how its own run ended
  /// --told-at: its clock when it was told to start minus the teller's clock when it told, so
  /// how far its clock is ahead plus how long the telling took (an ssh connection's setup);
  /// empty: not told.
  std::optional<std::chrono::nanoseconds> clock_offset;
  friend bool operator==(const ShardRecord&, const ShardRecord&) = default;
};

/// The shards of one run that a Summary holds: one in a shard's own run, several once merged.
struct Sharding {
  std::string run;                  ///< the run's id: every shard of one run has the same
  unsigned count = 1;               ///< N
  std::vector<ShardRecord> shards;  ///< in order of index, each index once
  /// A digest of the flags every shard of the run shares (its command line less --shard and
  /// the outputs): shards of other flags do not merge. Empty in files saved before it was kept.
  std::string plan{};
  /// The indexes of the shards not held: a merge without them.
  [[nodiscard]] std::vector<unsigned> missing() const;
  /// Some shard was stopped before its end (Ctrl-C, SIGTERM): its load was not all sent.
  [[nodiscard]] bool any_interrupted() const;
  /// The latest start after --start-at (by each shard's own clock), and how far apart the
  /// shards' starts were; zero without shards.
  [[nodiscard]] std::chrono::nanoseconds worst_skew() const;
  [[nodiscard]] std::chrono::nanoseconds start_spread() const;
  /// The least and the most clock_offset of the shards told (--told-at); empty if none was.
  [[nodiscard]] std::optional<std::pair<std::chrono::nanoseconds, std::chrono::nanoseconds>>
  clock_offsets() const;
  friend bool operator==(const Sharding&, const Sharding&) = default;
};

/// Everything a reporter may print; reporters are pure functions of it.
struct Summary {
  RunInfo info;
  Metrics total;  ///< every request completed so far
  /// Per step of a flow (aligned with info.steps); empty for a single request, where
  /// `total` is that step's.
  std::vector<Metrics> steps;
  std::chrono::nanoseconds elapsed{0};
  std::uint64_t users_running = 0;
  /// Requests under way at the last second's end (--prometheus's gauge); 0 once the run is over.
  std::uint64_t in_flight = 0;
  /// Requests started and not finished when the run was stopped, counted nowhere else:
  /// succeeded + failed + abandoned = the requests started.
  std::uint64_t abandoned = 0;
  /// Users that had begun when the run ended; a user the stop came before sent nothing.
  std::uint64_t users_started = 0;
  StopReason stop_reason = StopReason::completed;
  std::vector<Second> per_second;
  /// The generator's resident memory before any user started (0 when it could not be read):
  /// what the connections cost is the growth beyond it.
  std::uint64_t resident_at_start = 0;
  /// --pv: the servers the day's page views need, at the rate this run's server took.
  std::optional<CapacityPlan> capacity;
  /// --threshold: each bound's verdict, in the order given; empty without one.
  std::vector<ThresholdVerdict> thresholds;
  /// --shard: which shards of the run this is (merged by `stampede report`); empty: not sharded.
  std::optional<Sharding> sharding;

  /// Completed requests per wall-clock second since the start.
  [[nodiscard]] double rps() const;
  /// --rate: requests started per second of the sending (-z's window, else the whole run),
  /// those abandoned at a stop included, to set beside the rate asked for.
  [[nodiscard]] double achieved_rate() const;
  /// Successful requests per wall-clock second: what the server took (failures, a 503's
  /// quick refusal among them, do not make it faster).
  [[nodiscard]] double successes_per_second() const;
  /// Builds the Second that `interval` (this second's metrics, already merged into `total`)
  /// adds and appends it; `resident` is the generator's resident memory then.
  void add_second(const Metrics& interval, std::chrono::nanoseconds interval_length,
                  std::uint64_t running, std::uint64_t resident = 0);
  /// The rounds that picked `flow` of a mix (info.flows): its first step's requests.
  [[nodiscard]] std::uint64_t rounds_of(const model::FlowShare& flow) const {
    return flow.first < steps.size() ? steps[flow.first].completed() : 0;
  }
  /// True when the run opened connections apart from requests (WebSocket): the reports then
  /// show what became of them.
  [[nodiscard]] bool long_lived() const {
    return total.long_lived.opened > 0 || total.long_lived.failures() > 0;
  }
};

/// Nanoseconds to milliseconds, as reports print them.
inline double to_ms(double ns) { return ns / 1e6; }

/// Lower-case name of a stop reason ("interrupted").
const char* to_string(StopReason reason);

}  // namespace stampede::statistics
