// The command line as typed: go-stress-testing's flags (one dash or two) parsed into Options.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stampede::cmd {

/// A mistake in how stampede was called: printed as one line, exit status 2, nothing sent.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Every flag of a load run, still as the user typed it (validated, not yet interpreted).
struct Options {
  bool help = false;
  bool version = false;
  std::int64_t users = 1;            ///< -c
  std::int64_t requests = 1;         ///< -n, per user
  std::string url;                   ///< -u or the one positional argument (the first -u)
  std::vector<std::string> urls;     ///< every -u: more than one only with a sweep
  std::vector<std::string> headers;  ///< -H 'Name: value', repeatable
  std::string data;                  ///< -data, "@file" reads a file
  bool has_data = false;
  std::string method;             ///< -X; empty: GET, or POST with -data
  bool keep_alive = false;        ///< -k
  double request_timeout_s = 30;  ///< -t
  double run_timeout_s = 0;       ///< -timeout; 0: no limit
  /// -z, --duration: users start requests for this long (500ms, 30s, 2m, bare seconds), then
  /// finish those in flight; empty: -n decides.
  std::string duration;
  bool has_requests = false;          ///< -n was given (-z with a count of requests is refused)
  std::int64_t threads = 0;           ///< -cpuNumber; 0: every core
  std::string verify = "statusCode";  ///< -v
  /// --expect-status, --expect-json, --expect-body (repeatable) and --expect-size (-1: none):
  /// checks every response must pass besides -v's (whose status check --expect-status replaces).
  std::vector<std::string> expect_status;
  std::vector<std::string> expect_json;
  std::vector<std::string> expect_body;
  std::vector<std::string> expect_header;  ///< --expect-header 'Name: REGEX', repeatable
  std::int64_t expect_size = -1;
  std::int64_t code = 200;      ///< -code (read wide, so that 2^31 is out of range, not wrapped)
  bool redirect = false;        ///< -redirect
  bool debug = false;           ///< -d
  bool insecure = false;        ///< --insecure
  bool no_tls_resume = false;   ///< --no-tls-resume: every TLS handshake a full one
  bool http2 = false;           ///< -http2: HTTP/2 (ALPN over TLS, h2c over plain TCP)
  std::string output = "text";  ///< --output text|json
  /// -p, --curl: a "Copy as cURL" file (or HAR) to replay; several, each `FILE[:WEIGHT]`: a
  /// mix of flows, one picked by weight each round.
  std::vector<std::string> curl_files;
  std::string har_include;           ///< --har-include REGEX: the HAR entries replayed
  std::string har_exclude;           ///< --har-exclude REGEX: HAR entries left out
  bool print_request = false;        ///< --print-request: print the bytes, send nothing
  bool has_request_timeout = false;  ///< -t was given (it then wins over the file's --max-time)
  bool binary = false;               ///< --binary: WebSocket messages go as binary frames
  /// --max-message: the largest WebSocket message or gRPC answer message taken
  std::int64_t max_message = 1 << 20;
  bool has_max_message = false;  ///< --max-message was given (gRPC's default is 4 MiB)
  /// --hold [S]: keep WebSocket (or HTTP/2) connections open S seconds after the requests;
  /// hold_forever (--hold alone): until -timeout or Ctrl-C; 0: do not hold.
  double hold_s = 0;
  double ping_s = 0;      ///< --ping S: ping a silent held connection every S seconds; 0: never
  double interval_s = 0;  ///< --interval S: a user's sends S seconds apart; 0: back to back
  /// --think D or A-B: a user's pause between its requests; `har`: the HAR's; empty: none
  std::string think;
  std::int64_t connect_rate = 0;  ///< --connect-rate N: users started per second; 0: no limit
  /// --rate R: requests started per second on a schedule (the open model); -c caps those in
  /// flight, -n is then the run's total.
  double rate = 0;
  bool has_rate = false;
  bool has_users = false;   ///< -c was given (--rate's default cap is otherwise the machine's)
  std::string ramp;         ///< --ramp D: users start evenly over D; empty: all at once
  std::string stages;       ///< --stages D:U,...: users follow these stages; empty: -c all along
  bool sse = false;         ///< --sse: read the response as an event stream, event by event
  bool stream = false;      ///< --stream: read the response as a stream, piece by piece
  bool reconnect = false;   ///< --reconnect: open an event stream the server ended again
  bool listen = false;      ///< --listen: count what the server sends (after -data's messages)
  bool no_cookies = false;  ///< --no-cookies: users keep no cookies
  /// --capture 'NAME = json /pointer' (repeatable): what the one request keeps for the next
  std::vector<std::string> captures;
  std::string sweep;             ///< --sweep L1,L2,... users, or auto; empty: one run
  std::string sweep_rate;        ///< --sweep-rate R1,R2,... requests a second, or auto
  std::string slo;               ///< --slo 'p99<100ms,errors<1%': what a sweep's step must keep
  std::string warmup;            ///< --warmup D before each sweep step, not counted; empty: 2 s
  std::string percentiles_file;  ///< -e FILE: ab's percentile CSV, written after the run
  std::string prometheus;        ///< --prometheus ADDR: serve live metrics there; empty: none
  std::string dashboard;         ///< --dashboard ADDR: serve the live page there; empty: none
  std::string html_file;         ///< --html FILE: the run (or sweep) as one self-contained page
  std::string gnuplot_file;      ///< -g FILE: ab's gnuplot TSV, a line per request
  std::string save_file;  ///< --save FILE: the whole run, for `stampede report` and `compare`
  /// --threshold 'p99<200ms', repeatable: bounds the run must keep, or exit status 3.
  std::vector<std::string> thresholds;
  bool abort_on_fail = false;    ///< --abort-on-fail: stop once a threshold can no longer pass
  double page_views = 0;         ///< --pv N daily page views to plan servers for; 0: no planning
  double peak_share = 0.8;       ///< --peak-share: the share of the day's views in the peak
  double peak_time_share = 0.2;  ///< --peak-time-share: the share of the day the peak lasts
  /// Not a number one can mistype: `--hold=-1` is out of range, `--hold=inf` means the same.
  static constexpr double hold_forever = std::numeric_limits<double>::infinity();
  static constexpr std::string_view think_har = "har";  ///< --think har
  std::string source_ips;  ///< --source-ips: local addresses to bind (A-B, A/len, A, lists)
  /// -m, --connections N: with -http2, the users share N connections to each server; 0 (not
  /// given): each user has its own.
  std::int64_t connections = 0;
  std::vector<std::string> proto_files;   ///< --proto: the .proto files a gRPC method is in
  std::vector<std::string> import_paths;  ///< --import-path: where their imports are found
  std::string data_file;                  ///< --data-file: a gRPC message's protobuf bytes
  std::string csv_file;                   ///< --data-file FILE.csv: rows for ${csv:COLUMN}
  std::string data_mode;  ///< --data-mode per-user|per-request|random; empty: per-user
  bool has_code = false;  ///< -code was given (gRPC's default is 0, not 200)
  std::string shard;      ///< --shard I/N: this process is shard I (1 to N) of N; empty: none
  /// --shards N: N shards, this one's index from JOB_COMPLETION_INDEX; 0: not given.
  std::int64_t shards = 0;
  std::string start_at;  ///< --start-at TIME (RFC 3339): when the users start; empty: at once
  /// --run-id ID: what the shards of one run share; empty: made from the command line (with
  /// --shard or --shards).
  std::string run_id;
  /// --told-at TIME: when whoever started the shard told it to (by that one's clock: `stampede
  /// shards` gives it), so the shard records how far its clock is off; empty: not told.
  std::string told_at;
  /// With --shard or --shards: plan_digest() of the command line, which its saved run keeps.
  std::string plan;
};

/// Parses a load run's arguments (argv without the program name). Throws UsageError with a
/// one-line message naming the flag and how to fix it.
Options parse_options(std::span<const char* const> args);

/// `words` as an argv's pointers, for the parsers (valid while `words` is unchanged).
inline std::vector<const char*> argv_of(const std::vector<std::string>& words) {
  std::vector<const char*> argv;
  argv.reserve(words.size());
  for (const auto& word : words) argv.push_back(word.c_str());
  return argv;
}

}  // namespace stampede::cmd
