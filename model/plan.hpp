// How hard to push: users, requests per user, threads and time limits.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/data_rows.hpp"
#include "model/flow_mix.hpp"

namespace stampede::model {

/// One stage of --stages: the users move in a straight line to `target` over `duration`.
struct Stage {
  std::chrono::milliseconds duration{0};
  std::uint64_t target = 0;
};

/// The shape of a run; the pacing is back to back (each user sends its next request at once).
struct Plan {
  std::uint64_t users = 1;  ///< concurrent virtual users (-c)
  /// Rounds each user sends (-n): a round is one request, or every step of a flow once; 0 means
  /// until stopped.
  std::uint64_t rounds_per_user = 1;
  unsigned threads = 1;                               ///< io_context threads (-cpuNumber)
  std::chrono::milliseconds request_timeout{30'000};  ///< one exchange, connect included (-t)
  std::chrono::milliseconds run_timeout{0};           ///< whole run; 0 means no limit (-timeout)
  /// -z: users start requests for this long, then the run ends once those in flight are over
  /// (within -t), each counted; 0: rounds_per_user decides.
  std::chrono::milliseconds duration{0};
  unsigned debug_exchanges = 0;  ///< how many exchanges to log in full (-d)
  /// --hold: how long each user keeps its long-lived connections (WebSocket; HTTP/2 held)
  /// open after its requests; 0: not at all; max(): until the run is stopped (-timeout, Ctrl-C).
  std::chrono::milliseconds hold{0};
  std::chrono::milliseconds ping{0};  ///< --ping: ping a silent long-lived connection this often
  /// --listen: after its requests (none without -data), each user records every message the
  /// server sends on its long-lived connection, until --hold's time or the end of the run.
  bool listen = false;
  /// --reconnect: an event stream the server ends before the user has read its events is
  /// opened again (with Last-Event-ID), as a browser's EventSource does; without, the user's
  /// reading ends with it.
  bool reconnect = false;
  /// Each user keeps the cookies servers set and sends them back (RFC 6265), across the steps
  /// and rounds of its flow; false with --no-cookies.
  bool cookies = true;
  /// --data-file's rows for `${csv:COLUMN}`, shared by every run of a sweep; null: none.
  std::shared_ptr<const DataRows> data;
  /// Several -p FILE:WEIGHT: the flows among the steps, one picked by weight each round;
  /// empty: every round sends all the steps.
  std::vector<FlowShare> mix;
  /// --interval: a user sends its requests this far apart (from send to send); 0: back to back.
  std::chrono::microseconds interval{0};
  /// --think: a user pauses between its requests (from one's end to the next's start, so never
  /// in a latency) for a time drawn from [think_min, think_max]; both 0: no pause.
  std::chrono::milliseconds think_min{0};
  std::chrono::milliseconds think_max{0};
  /// --rate: rounds (one request, or a flow's steps) started per second on a schedule, whatever
  /// the responses (the open model); users are started as needed, at most `users` (the cap on
  /// rounds in flight). 0: the closed model, each user's rounds back to back.
  double rate = 0;
  /// --rate with -n: rounds in all; 0: until -z's end or the run is stopped.
  std::uint64_t rate_rounds = 0;
  /// --ramp: the users start evenly over this long (then each runs as it would), or with
  /// `rate` the rate rises evenly from 0 to it; 0: at once.
  std::chrono::milliseconds ramp{0};
  /// --stages: the users follow these stages from 0, started and stopped (after their request
  /// in flight) as the level moves; `users` is then their peak and `duration` their length.
  /// With `rate` (then their peak), the targets are requests a second instead, and `users` the
  /// cap. Empty: `users` users (or `rate`) for the whole run.
  std::vector<Stage> stages;
  /// --connect-rate: users (and so their connections) started per second; 0: as fast as the
  /// threads can, in parallel.
  std::uint64_t connect_rate = 0;
  /// -m: the connections to each server that the users share, spread over the threads (so no
  /// more threads run than this); 0: each user has its own.
  std::uint64_t connections = 0;
  /// Local addresses each new connection binds to in turn (--source-ips), as text: the model
  /// knows no Asio; the engine's Flow turns them into addresses. Empty: the kernel picks.
  std::vector<std::string> source_addresses;
  /// --save: each second of the run keeps its latency histogram (about 1 KB for each power of
  /// two its latencies span), so saved runs merge exactly second by second.
  bool latency_per_second = false;
  /// --shard: this process's users are numbered from here (the users of the shards before it),
  /// so their seeds and `${csv:...}` rows are the ones a single run would give them.
  std::uint64_t first_user = 0;
  /// --start-at: the wall-clock instant the users start (the run waits for it, so that shards
  /// on several machines start together); empty: at once.
  std::optional<std::chrono::system_clock::time_point> start_at;
};

}  // namespace stampede::model
