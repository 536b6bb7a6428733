// The load run's flags, one row each: spelling, help, default, section, where the value goes and
// its range. parse_options() binds them, help and the references print them.
#include "cmd/load_flags.hpp"

#include <array>

#include "cmd/limits.hpp"
#include "report/formats.hpp"
#include "verify/verifier.hpp"

namespace stampede::cmd {
namespace {

constexpr std::string_view send = "What to send";
constexpr std::string_view websocket = "WebSocket";
constexpr std::string_view hold = "Holding connections";
constexpr std::string_view hard = "How hard";
constexpr std::string_view sweep = "Sweeps and capacity";
constexpr std::string_view machines = "Over several machines";
constexpr std::string_view success = "What counts as success";
constexpr std::string_view output = "Output";

template <auto Member>
constexpr auto bound = &into<Options, Member>;
template <auto Member>
constexpr auto each = &each_into<Options, Member>;

/// --hold alone holds until the run is stopped.
boost::program_options::value_semantic* hold_seconds(Options& o) {
  return boost::program_options::value(&o.hold_s)->implicit_value(Options::hold_forever);
}

/// One line per -v choice, from verify's table, with the -code values it takes.
std::string verifier_choices_text() {
  std::string lines;
  for (const auto& kind : verify::verifier_kinds()) {
    lines += std::string(kind.name) +
             (kind.alias.empty() ? "" : " (or " + std::string(kind.alias) + ")") + ": " +
             std::string(kind.description) + "; -code " + std::string(kind.code_range) + "\n";
  }
  return lines;
}

/// One line per --output format, from report's table.
std::string format_choices_text() {
  std::string lines;
  for (const report::Format& format : report::formats()) {
    lines += std::string(format.name) + ": " + std::string(format.description) + "\n";
  }
  return lines;
}

// Written so that NaN fails every range.
const auto flags = std::to_array<Flag<Options>>({
    // What to send
    {{"-u, --url", "URL", "",
      "http://, https://, ws://, wss://, grpc:// or grpcs:// URL (a bare host:port/path is "
      "http://); may also be the last word; user:password@ is sent as Basic authorization",
      send},
     each<&Options::urls>},
    {{"-p, --curl", "FILE", "",
      "send what a \"Copy as cURL\" file sends (a flow if it has several commands), or replay a "
      "HAR file; several -p FILE:WEIGHT make a weighted mix; -u, -H, -data, -X override it",
      send},
     each<&Options::curl_files>},
    {{"--har-include", "REGEX", "all but static assets",
      "replay only the HAR entries whose URL it matches, assets too", send},
     bound<&Options::har_include>},
    {{"--har-exclude", "REGEX", "", "leave out the HAR entries whose URL it matches", send},
     bound<&Options::har_exclude>},
    {{"--print-request", "", "",
      "print the exact bytes of each request (HTTP/2: its header list) and exit, sending "
      "nothing",
      send},
     bound<&Options::print_request>},
    {{"-H, --header", "'K: V'", "",
      "add a header (repeatable); 'K;' sends it empty, 'K:' drops a default one (Accept, "
      "User-Agent)",
      send},
     each<&Options::headers>},
    {{"-data, --data", "BODY", "", "the request body (makes it a POST); @file reads it from a file",
      send},
     bound<&Options::data>},
    {{"-X, --method", "METHOD", "GET, or POST with -data", "the HTTP method, one word", send},
     bound<&Options::method>},
    {{"-k, --keepalive", "", "a new connection per request",
      "reuse each user's connection (reopened when the server closes it)", send},
     bound<&Options::keep_alive>},
    {{"--no-cookies", "", "each user keeps a jar, as a browser does",
      "send back no cookie a server set", send},
     bound<&Options::no_cookies>},
    {{"--capture", "'NAME = SOURCE'", "",
      "keep part of each response as ${NAME} for the next round: json /pointer, header Name "
      "[REGEX] or body REGEX (repeatable)",
      send},
     each<&Options::captures>},
    {{"--data-file", "FILE", "",
      "FILE.csv: rows for ${csv:COLUMN} (its header names them); another FILE: a gRPC "
      "message's protobuf bytes",
      send},
     bound<&Options::data_file>},
    {{"--data-mode", "MODE", "per-user",
      "how users take a CSV's rows: per-user (user u keeps row u), per-request (in turn) or "
      "random",
      send},
     bound<&Options::data_mode>},
    {{"-http2, --http2", "", "HTTP/1.1",
      "HTTP/2: https:// offers h2 by ALPN (HTTP/1.1 if the server declines); http:// sends h2c "
      "directly",
      send},
     bound<&Options::http2>},
    {{"-m, --connections", "N", "a connection per user",
      "with -http2, the users share N connections to each server, one stream each at a time", send,
      "-m must be 0 (each user its own connection) or a whole number from 1 to 10000000 "
      "(connections to each server that the users share, with -http2)"},
     bound<&Options::connections>,
     [](const Options& o) { return o.connections >= 0 && o.connections <= limits::max_users; }},
    {{"--proto", "FILE", "",
      "gRPC: the .proto file the method is in (repeatable); -data's JSON is the message", send},
     each<&Options::proto_files>},
    {{"--import-path", "DIR", "the .proto's own folder",
      "gRPC: where the .proto's imports are found (repeatable)", send},
     each<&Options::import_paths>},
    {{"-redirect", "", "off",
      "follow redirects (301, 302, 303, 307, 308) on the same origin, up to 10", send},
     bound<&Options::redirect>},
    {{"--insecure", "", "verify", "do not verify TLS certificates (self-signed test servers)",
      send},
     bound<&Options::insecure>},
    {{"--no-tls-resume", "",
      "each user resumes its last TLS session, offering TLS 1.2 only if that one was",
      "a full TLS handshake on every new connection", send},
     bound<&Options::no_tls_resume>},
    // WebSocket
    {{"--sse", "", "off",
      "read the response as Server-Sent Events (sends Accept: text/event-stream): each event "
      "is a request of the run, -n the events each user reads (a user's reading ends when the "
      "server ends its stream)",
      send},
     bound<&Options::sse>},
    {{"--stream", "", "off",
      "read each response as a stream: each piece is a request of the run (a server-streaming "
      "gRPC method's answer messages; an HTTP body's bytes as each read brings them), -n the "
      "pieces each user reads",
      send},
     bound<&Options::stream>},
    {{"--reconnect", "", "off",
      "with --sse or --stream: a stream the server ends is opened again (an event stream with "
      "Last-Event-ID, after its retry: delay, as a browser's EventSource does)",
      send},
     bound<&Options::reconnect>},
    {{"--binary", "", "text", "send the WebSocket message as a binary frame", websocket},
     bound<&Options::binary>},
    {{"--max-message", "BYTES", "1048576 (gRPC 4194304)",
      "the largest WebSocket message, gRPC answer or event-stream line taken; a larger one fails "
      "as too_big",
      websocket,
      "--max-message must be a whole number of bytes from 1 to 1073741824 (1 GiB: a reply is "
      "held whole in memory)"},
     bound<&Options::max_message>,
     [](const Options& o) {
       return o.max_message >= 1 && o.max_message <= limits::max_message_bytes;
     }},
    {{"--listen", "", "off",
      "after -data's messages, count each message the server sends until --hold's S or the "
      "end of the run",
      websocket},
     bound<&Options::listen>},
    // Holding connections
    {{"--hold", "[S]", "off",
      "keep each connection (WebSocket, or HTTP/2 with -http2) open S seconds after its "
      "requests; alone: until -timeout or Ctrl-C",
      hold,
      "--hold takes a number of seconds from 0 to 31536000 (a year), or nothing (hold until "
      "-timeout or Ctrl-C)"},
     &hold_seconds,
     [](const Options& o) {
       return o.hold_s == Options::hold_forever ||
              (o.hold_s >= 0 && o.hold_s <= limits::max_seconds);
     }},
    {{"--ping", "S", "never",
      "ping a held connection silent for S seconds; one unanswered for S more is lost", hold,
      "--ping must be 0 (no pings) or a number of seconds from 0.01 to 31536000 (a year)"},
     bound<&Options::ping_s>,
     [](const Options& o) {
       return o.ping_s == 0 ||
              (o.ping_s >= limits::min_request_timeout_s && o.ping_s <= limits::max_seconds);
     }},
    // How hard
    {{"-c, --concurrency", "N", "1",
      "concurrent users; each is one coroutine with its own connection to each server", hard,
      "-c must be a whole number from 1 to 10000000 (concurrent users; each holds its own "
      "connection to each server)"},
     bound<&Options::users>,
     [](const Options& o) { return o.users >= 1 && o.users <= limits::max_users; }},
    {{"-n, --requests", "N", "1",
      "requests each user sends (c x n in all; with --rate, the run's total); 0: until -z or "
      "-timeout",
      hard,
      "-n must be a whole number from 0 to 1000000000000 (requests per user; 0 runs until "
      "-timeout)"},
     bound<&Options::requests>,
     [](const Options& o) { return o.requests >= 0 && o.requests <= limits::max_requests; }},
    {{"-z, --duration", "D", "off",
      "each user sends until D is up (500ms, 30s, 2m, 1h, or seconds); those in flight then "
      "finish and are counted",
      hard},
     bound<&Options::duration>},
    {{"-t, --request-timeout", "S", "30", "seconds one request may take, connect included", hard,
      "-t must be a number of seconds from 0.01 to 31536000 (a year): timeouts are checked "
      "every 5 ms at best"},
     bound<&Options::request_timeout_s>,
     [](const Options& o) {
       return o.request_timeout_s >= limits::min_request_timeout_s &&
              o.request_timeout_s <= limits::max_seconds;
     }},
    {{"-timeout", "S", "no limit",
      "stop the whole run after S seconds and report, abandoning the requests in flight", hard,
      "-timeout must be 0 (no limit) or a number of seconds from 0.001 to 31536000 (a year)"},
     bound<&Options::run_timeout_s>,
     [](const Options& o) {
       return o.run_timeout_s == 0 || (o.run_timeout_s >= limits::min_run_timeout_s &&
                                       o.run_timeout_s <= limits::max_seconds);
     }},
    {{"-cpuNumber", "N", "every core", "threads, one io_context each; 0: every core", hard,
      "-cpuNumber must be a whole number from 0 (every core) to 1024"},
     bound<&Options::threads>,
     [](const Options& o) { return o.threads >= 0 && o.threads <= limits::max_threads; }},
    {{"--interval", "S", "back to back", "each user's sends S seconds apart, send to send", hard,
      "--interval must be 0 (back to back) or a number of seconds from 0.001 to 31536000 (a "
      "year)"},
     bound<&Options::interval_s>,
     [](const Options& o) {
       return o.interval_s == 0 ||
              (o.interval_s >= limits::min_run_timeout_s && o.interval_s <= limits::max_seconds);
     }},
    {{"--think", "D|A-B|har", "no pause",
      "each user pauses D (or from A to B) between its requests, never in a latency; har: the "
      "pauses a HAR recorded",
      hard},
     bound<&Options::think>},
    {{"--rate", "R", "off",
      "the open model: start R requests (with --sse or --stream: streams) a second on a "
      "schedule, whatever the responses; -c caps those in flight",
      hard, "--rate must be a number of requests per second from 0.001 to 10000000"},
     bound<&Options::rate>,
     [](const Options& o) { return o.rate >= limits::min_rate && o.rate <= limits::max_rate; }},
    {{"--ramp", "D", "all at once",
      "start the users evenly over D (with --rate: the rate rises from 0 over D)", hard},
     bound<&Options::ramp>},
    {{"--stages", "D:N,...", "off",
      "from 0, each stage moves the users in a straight line to N over D; D:N/s stages move "
      "the rate",
      hard},
     bound<&Options::stages>},
    {{"--connect-rate", "N", "all at once", "start N users (so N connections) a second", hard,
      "--connect-rate must be 0 (no limit) or a whole number of connections per second from 1 "
      "to 10000000"},
     bound<&Options::connect_rate>,
     [](const Options& o) { return o.connect_rate >= 0 && o.connect_rate <= 10'000'000; }},
    {{"--source-ips", "SPEC", "the kernel picks",
      "bind new connections to these local addresses in turn (127.0.0.2-127.0.0.9, "
      "10.0.0.0/24, or a list)",
      hard},
     bound<&Options::source_ips>},
    // Sweeps and capacity
    {{"--sweep", "L1,L2,...|auto", "one run",
      "one run of -z at each number of users, rising, then a table and the knee", sweep},
     bound<&Options::sweep>},
    {{"--sweep-rate", "R1,R2,...|auto", "",
      "the same with --rate's requests a second as the levels (-c caps them)", sweep},
     bound<&Options::sweep_rate>},
    {{"--slo", "'p99<100ms,errors<1%'", "QPS alone",
      "what a sweep's step must keep to count as served", sweep},
     bound<&Options::slo>},
    {{"--warmup", "D", "2s", "the uncounted run before each step of a sweep (0: none)", sweep},
     bound<&Options::warmup>},
    {{"--pv", "N", "off",
      "plan servers for N page views a day from the measured (or the knee's) requests a second",
      sweep},
     bound<&Options::page_views>},
    {{"--peak-share", "S", "0.8", "the share of a day's page views in its peak (--pv)", sweep},
     bound<&Options::peak_share>},
    {{"--peak-time-share", "T", "0.2", "the share of the day the peak lasts (--pv)", sweep},
     bound<&Options::peak_time_share>},
    // Over several machines
    {{"--shard", "I/N", "not sharded",
      "this process is shard I (1 to N) of a run split over N machines: it takes its slice of "
      "the load",
      machines},
     bound<&Options::shard>},
    {{"--shards", "N", "",
      "the same, I from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's, from 0)", machines},
     bound<&Options::shards>},
    {{"--start-at", "TIME", "at once",
      "start the users at TIME (RFC 3339, 2026-12-01T10:00:00Z), so that shards start together",
      machines},
     bound<&Options::start_at>},
    {{"--run-id", "ID", "made from the command line",
      "the id the shards of one run share (letters, digits, -_., up to 64)", machines},
     bound<&Options::run_id>},
    {{"--told-at", "TIME", "",
      "when this shard was told to start, by the teller's clock (stampede shards gives it)",
      machines},
     bound<&Options::told_at>},
    // What counts as success
    {{"-v, --verify",
      "NAME",
      "statusCode",
      "how a response is judged:",
      success,
      {},
      &verifier_choices_text},
     bound<&Options::verify>},
    {{"-code", "N", "200 (gRPC: 0, OK)",
      "the code that counts as success: the status, a JSON body's \"code\" (-v json), or a "
      "gRPC status",
      success},
     bound<&Options::code>},
    {{"--expect-status", "LIST", "-code",
      "the status is one of LIST (200,204,300-399), instead of -code's (repeatable)", success},
     each<&Options::expect_status>},
    {{"--expect-json", "'PTR=V'", "",
      "the body's JSON at pointer PTR equals V; 'PTR' exists; 'PTR~RE' matches RE "
      "(repeatable)",
      success},
     each<&Options::expect_json>},
    {{"--expect-body", "RE", "", "the body matches the regex RE (repeatable)", success},
     each<&Options::expect_body>},
    {{"--expect-header", "'NAME: RE'", "",
      "the response has header NAME with a value RE matches ('NAME:': has it; repeatable)",
      success},
     each<&Options::expect_header>},
    {{"--expect-size", "N", "", "the body is exactly N bytes", success},
     bound<&Options::expect_size>},
    {{"--threshold", "EXPR", "none",
      "a bound the run must keep, or exit status 3: p99<200ms, errors<0.5%, rps>2000, "
      "step2.p99<50ms (repeatable)",
      success},
     each<&Options::thresholds>},
    {{"--abort-on-fail", "", "run to the end",
      "stop the run once a threshold can no longer pass (an error count or max past its bound)",
      success},
     bound<&Options::abort_on_fail>},
    // Output
    {{"--output", "FORMAT", "text", "the final report:", output, {}, &format_choices_text},
     bound<&Options::output>},
    {{"-e, --percentiles-csv", "FILE", "",
      "also write ab's percentile CSV (0% to 99%, in ms) to FILE", output},
     bound<&Options::percentiles_file>},
    {{"-g, --gnuplot", "FILE", "",
      "also write ab's gnuplot file: a line per request (the only output that keeps every one)",
      output},
     bound<&Options::gnuplot_file>},
    {{"--html", "FILE", "", "also write the run (or sweep) as one page that works offline", output},
     bound<&Options::html_file>},
    {{"--save", "FILE", "", "also write the whole run, for stampede report and stampede compare",
      output},
     bound<&Options::save_file>},
    {{"--prometheus", "ADDR", "off",
      "serve the live metrics at http://ADDR/metrics (127.0.0.1:9464; port 0: any free one)",
      output},
     bound<&Options::prometheus>},
    {{"--dashboard", "ADDR", "off",
      "draw the run live in a browser at http://ADDR/ (127.0.0.1:8089; port 0: any free one), "
      "with a stop button",
      output},
     bound<&Options::dashboard>},
    {{"-d, --debug", "", "off", "log the first 5 requests and responses in full, on stderr",
      output},
     bound<&Options::debug>},
    {{"-h, --help", "", "", "this help; stampede help FLAG says more about one flag", output},
     bound<&Options::help>},
    {{"--version", "", "", "print the version", output}, bound<&Options::version>},
});

}  // namespace

std::span<const Flag<Options>> load_flags() { return flags; }

CommandDoc load_command_doc() {
  return {"",
          "stampede -c USERS -n REQUESTS -u URL [flags]",
          "puts load on an HTTP/1.1, HTTPS, HTTP/2, WebSocket or gRPC service and reports how "
          "it held up",
          {{send,
            "${...} in -u, -H and -data is filled per request: ${user} ${seq} ${uuid} "
            "${rand:A-B} ${now} ${now_ms} ${env:NAME} ${csv:COLUMN}, a captured ${NAME}"},
           {websocket,
            "(ws://, wss://) each user opens one connection, then sends -n messages, each "
            "awaiting one reply; without -data, go-stress-testing's ping"},
           {hold, "(WebSocket, or HTTP/2 with -http2; HTTP/1.1 has none to hold)"},
           {hard},
           {sweep},
           {machines, "(then: stampede report shard-*.stampede merges their saved runs)"},
           {success},
           {output}},
          docs_of(load_flags()),
          "Flags take Go's forms: -c 10, -c=10, --c 10, --concurrency 10; a switch alone is true\n"
          "(-k), or takes a value after = (-k=false).\n\n"
          "Exit status: 0 the run completed (whatever the server answered; Ctrl-C and -timeout\n"
          "too), 1 it could not run, 2 a usage error or a run this machine cannot hold (nothing\n"
          "was sent), 3 the run ended but a --threshold failed, 4 (compare) run B broke a --max-*\n"
          "bound, 5 (report, shards) some shard of the run is missing or was interrupted.\n"};
}

}  // namespace stampede::cmd
