// The --help text, grouped as a user looks for things: what to hit, how hard, what counts.
#include <algorithm>
#include <string>

#include "cmd/options.hpp"
#include "report/formats.hpp"
#include "verify/verifier.hpp"

namespace stampede::cmd {
namespace {

// Where the help's descriptions start, and where a format's own description starts under it.
constexpr std::size_t description_column = 27;
constexpr std::size_t format_column = description_column + 2;
constexpr std::size_t format_description_column = format_column + 6;

/// `text` padded with blanks to `column` (one blank at least).
std::string padded(std::string text, std::size_t column) {
  text.resize(std::max(text.size() + 1, column), ' ');
  return text;
}

/// The --output lines, from the table of formats: the flag, then one line per format.
std::string output_help() {
  std::string text = padded("  --output " + report::format_names("|"), description_column);
  text += "the final report (default " + std::string(report::formats().front().name) + "):\n";
  for (const report::Format& format : report::formats()) {
    const std::string name = std::string(format_column, ' ') + std::string(format.name);
    text += padded(name, format_description_column) + std::string(format.description) + "\n";
  }
  return text;
}

/// One line per -v choice, from verify's table, with the -code values it takes.
std::string verifier_lines() {
  std::string lines;
  for (const auto& kind : verify::verifier_kinds()) {
    auto line = "  -v " + std::string(kind.name);
    line.resize(std::max<std::size_t>(line.size() + 1, 27), ' ');
    lines += line + std::string(kind.description) + "\n";
    lines += std::string(27, ' ') + "(-code: " + std::string(kind.code_range) + ")\n";
  }
  return lines;
}

}  // namespace

std::string help_text() {
  return R"(stampede: HTTP, WebSocket and gRPC load generator (go-stress-testing's flags, ab's report)

Usage:
  stampede -c USERS -n REQUESTS -u URL [flags]
  stampede serve [--port 8080] [--bind 127.0.0.1] [--threads N] [--workers N]
                 [--tls-port 8443 [--cert FILE --key FILE]] [--max-streams N]
                 [--idle-timeout S] [--max-in-flight K]
  stampede report FILE... [--output FORMAT] [--threshold EXPR]... [--save FILE] [-e FILE]
                  [--html FILE]
  stampede compare A B [--max-p99-regress 10%] [--max-rps-drop 5%] [--output text|json]
  stampede shards --hosts H1,H2,... [--ssh 'ssh -p 2222'] [--stampede PATH] [--lead 5s]
                  [--wait D] [--dir DIR] [report's flags] -- LOAD FLAGS

Examples:
  stampede -c 100 -n 1000 -k -u http://127.0.0.1:8080/api
  stampede -c 50 -n 200 -u https://localhost:8443/ -H 'Authorization: Bearer x' -data '{"a":1}' -v json
  stampede -c 100 -z 30s -k -u http://127.0.0.1:8080/              (as many as fit in 30 s)
  stampede --rate 5000 -c 200 -z 60s -k -u http://127.0.0.1:8080/  (5000 a second, on a schedule)
  stampede --stages 30s:100,60s:500,30s:0 -k -u http://127.0.0.1:8080/  (ramp up, hold, down)
  stampede -c 50 -z 30s -k -u http://127.0.0.1:8080/ --threshold 'p99<200ms' --threshold 'errors<0.5%'
  stampede --sweep 80,100,150,200 -z 15s -k -u http://a/ -u http://b/  (ab at each, side by side)
  stampede --sweep auto --slo 'p99<100ms,errors<1%' -k -u http://127.0.0.1:8080/  (find the knee)
  stampede --pv 30000000 --sweep auto -k -u http://127.0.0.1:8080/  (servers for 30M views a day)
  stampede -c 50 -n 200 -u grpc://127.0.0.1:50051/helloworld.Greeter/SayHello --proto hello.proto -data '{"name":"x"}'
  stampede -c 50 -z 30s -k -u http://127.0.0.1:8080/ --save today.stampede   (keep the run)
  stampede report a.stampede b.stampede     (re-render saved runs; several merge into one)
  stampede shards --hosts h1,h2,h3 --threshold 'p99<200ms' -- -c 3000 -z 60s -k -u http://a/
                                  (a shard a host over ssh, started together, merged, judged)
  stampede compare yesterday.stampede today.stampede --max-p99-regress 10% --max-rps-drop 5%
                                  (exit 4 past a bound; also --max-p50/p90/mean/max-regress,
                                  --max-errors-rise in percentage points)
  stampede serve --port 8080                                      (the built-in target)
  stampede serve --port 8080 --tls-port 8443   (HTTP/1.1, h2c, and over TLS h2 or HTTP/1.1 by
                                  ALPN, self-signed; gRPC echo: POST /stampede.Echo/Echo)
  stampede serve --port 8080 --idle-timeout 0  (never close a silent HTTP/1.1 or HTTP/2
                                  connection; default: after 60 s; --idle-timeout 0.5: 500 ms)
  stampede serve --port 8080 --max-in-flight 4  (answer 503 past 4 requests at once: a
                                  server with a known capacity, to try --sweep on)
  stampede -c 10 -n 100 -k -p request.curl.txt                    (replay a "Copy as cURL" file)
  stampede -c 1000 -n 100 -u ws://127.0.0.1:8080/echo -data '{"op":"ping"}'  (100 messages each)
  stampede -c 10000 -n 1 --hold 60 -u ws://127.0.0.1:8080/echo    (hold 10,000 connections)
  stampede -c 5000 -n 10 -http2 --hold 30 -u http://127.0.0.1:8080/  (hold HTTP/2 connections)
  stampede -c 200 -n 500 -http2 -m 4 -u https://localhost:8443/ --insecure  (200 users, 4 connections)

What to send:
  -u, --url URL            http://, https://, ws://, wss://, grpc:// or grpcs:// URL (a bare
                           host means http://);
                           or give it last; user:password@ in it is sent as Authorization: Basic
  -p, --curl FILE          send what a "Copy as cURL" file sends (bash or cmd); several
                           commands are a flow each user sends in order, -n rounds of it;
                           -u, -H, -data and -X given here override the file's;
                           FILE.har: a browser's recording, each entry a step (static
                           assets left out; the choice is printed)
  -p FILE:WEIGHT ...       several -p: a mix; each round, each user picks one file's flow
                           by weight (-p browse.sh:8 -p pay.sh:1; no weight: 1); the
                           report gives each flow its share and its own steps
  --har-include REGEX      replay only the HAR entries whose URL it matches, assets too
  --har-exclude REGEX      leave out the HAR entries whose URL it matches
  --print-request          print the exact bytes of each request and exit, sending nothing
  -H, --header 'K: V'      add a header; repeatable; 'K;' sends an empty value, 'K:' drops
                           a default header (Accept, User-Agent)
  -data, --data BODY       request body (makes it a POST); @file reads the body from a file
  -X, --method METHOD      HTTP method, one word (default GET, or POST with -data)
  -k, --keepalive          reuse each user's connection (default: a new one per request)
  --no-cookies             send no cookies a server set (default: each user keeps its own,
                           across steps and rounds, as a browser does)
  ${...} in -u, -H, -data  per request: ${user} ${seq} ${uuid} ${rand:A-B} ${now} ${now_ms}
                           ${env:NAME} ${csv:COLUMN}, captured ${NAME}; $${ is a literal
                           ${ (quote them with '...')
  --capture 'NAME = json /pointer' | 'NAME = header Name [REGEX]' | 'NAME = body REGEX'
                           keep part of each response as ${NAME} for the next round (in a
                           curl file: '# stampede: capture ...' before a command, for the
                           steps after it); one found nothing: the request fails as capture
  -http2, --http2          HTTP/2: https:// offers h2 by ALPN (HTTP/1.1 if the server
                           declines, as curl and Go do); http:// sends h2c directly
  --proto FILE             gRPC (grpc://host:port/pkg.Service/Method, grpcs://): the .proto
                           the method is in (repeatable); -data's JSON is the message
  --import-path DIR        where the .proto's imports are found (repeatable)
  --data-file FILE         gRPC: the message's protobuf bytes instead of -data's JSON;
                           FILE.csv: rows for ${csv:COLUMN} (the header names them)
  --data-mode M            a .csv's rows: per-user (user u keeps row u; the default),
                           per-request (rows in turn) or random
  -m, --connections N      with -http2: the users share N connections to each server, each
                           user one stream at a time (-c 100 -m 10 is h2load's -c 10 -m 10);
                           streams past the server's limit wait (Queueing); default: a
                           connection per user
  -redirect                follow redirects on the same host (up to 10)
  --insecure               do not verify TLS certificates (self-signed test servers)
  --no-tls-resume          a full TLS handshake on every connection (default: each user
                           resumes its last session, as a browser does)

WebSocket (ws://, wss://): each user opens one connection, then sends -n messages, each
awaiting one reply (latency: message to reply; the upgrade counts as the connect time):
  -data MESSAGE            the text message (@file reads it); without it, go-stress-testing's
                           ping {"seq":"<user>_<i>","cmd":"ping","data":{}}
  --binary                 send the message as a binary frame
  --max-message BYTES      the largest reply taken, 1 to 2^30 (default 1048576; for a gRPC
                           answer 4194304); a larger one fails as too_big
  --listen                 after the -data messages (none without -data), count each message
                           the server sends until --hold's S or the end of the run (-timeout,
                           Ctrl-C): successes are messages, latencies the gaps between them

Holding connections (WebSocket, or HTTP/2 with -http2; HTTP/1.1 has none to hold):
  --hold [S]               keep each connection open S seconds after its requests (without S:
                           until -timeout or Ctrl-C), then close it as its protocol does (close
                           frame, GOAWAY); the table then shows connections. With -http2 it
                           implies -k: a user's requests share the connection it then holds
  --ping S                 ping a connection silent for S seconds (HTTP/2: while held, with
                           PING frames); one unanswered for S more is lost (timeout)

How hard:
  -c, --concurrency N      concurrent users, 1 to 10^7 (default 1); each holds one
                           connection to each server, so open files, memory and local ports
                           (per source address) bound it: a run that cannot fit is refused
  -n, --requests N         requests per user, 0 to 10^12 (default 1; c x n in all;
                           0 = until -z or -timeout)
  -z, --duration D         each user sends until D is up (30s, 2m, 500ms, 1h, or seconds),
                           then the requests in flight finish within -t and are counted
  -t, --request-timeout S  seconds for one request, connect included, 0.01 to 31536000
                           (default 30)
  -timeout S               stop the whole run after S seconds, abandoning the requests in
                           flight (default and 0: no limit)
  -cpuNumber N             threads, 0 to 1024 (default and 0: every core)
  --interval S             each user sends S seconds apart, send to send (default: back to
                           back); --interval 1 --hold is go-stress-testing's WebSocket cadence
  --think D | A-B          each user pauses between its requests, D or from A to B
                           (--think 200ms-1s), never in a latency; not with --interval;
                           --think har: the pauses a HAR recorded before each entry
  --rate R                 start R requests a second on a schedule, whatever the responses
                           (0.001 to 10^7); -c caps those in flight (default: R x 10, as
                           many as fit), -n is the total; latency counts from each one's
                           due time (service time and lag beside it); not with --think or
                           --interval
  --ramp D                 the users start evenly over D (with --rate: the rate rises from 0
                           to R over D); shorter than -z
  --stages D:N,...         from 0, each stage moves the users in a straight line to N over D
                           (--stages 30s:100,60s:500,30s:0); the run lasts the stages; D:N/s
                           stages move --rate's requests a second instead (-c their cap)
  --sweep L1,L2,... | auto one run of -z (default 10s) at each number of users, each after
                           an uncounted --warmup (default 2s; 0: none), for every -u in turn;
                           then a table and the knee: the last level before QPS stops rising
                           (+80% of the users' growth) or the SLO breaks. auto doubles from 1
                           user, then bisects (at most 12 steps). Not with -c, -n, --rate
  --sweep-rate R1,... | auto  the same, the levels being --rate's requests a second (-c caps)
  --slo 'p99<100ms,errors<1%'  what a sweep's step must keep: p50, p90, p99 or mean below a
                           time, errors below a share
  --pv N                   plan servers for N page views a day: peak = N x 80% / (86400 s x
                           20%), over the QPS this run (or the sweep's knee) measured;
                           --peak-share 0.8 and --peak-time-share 0.2 set the shares
  --connect-rate N         start N users (so N new connections) a second (default: all at
                           once, in parallel)
  --source-ips SPEC        bind connections to these local addresses in turn, each adding a
                           port range: 127.0.0.2-127.0.0.9, 10.0.0.0/24, or a comma list

Over several machines (then: stampede report shard-*.stampede):
  --shard I/N              this process is shard I (0 to N-1) of N: it takes its slice of
                           -c (the remainder to the first shards), --rate and its -n, each
                           --stages target, --connect-rate, -m, --source-ips and the rows of
                           a per-request or random --data-file; add --save
  --shards N               the same, I from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)
  --start-at TIME          the users start at TIME (2026-12-01T10:00:00Z, RFC 3339) so that
                           every shard starts together; each records how late it started
  --run-id ID              what the shards of one run share (default: made from the command
                           line, --start-at included, without --shard and the output files)
  --told-at TIME           when this shard was told to start, by the teller's clock (stampede
                           shards gives it): the shard records how far its clock is off

What counts as success:
  -v, --verify NAME        how a response is judged (default statusCode):
)" + verifier_lines() +
         R"(  -code N                  expected code (default 200; for a gRPC call its status
                           code, 0 to 16, default 0: OK)
  --expect-status LIST     the status is one of LIST (200,204,300-399), instead of -code's
  --expect-json 'PTR=V'    the body's JSON at pointer PTR equals V (/data/id=42); 'PTR'
                           exists; 'PTR~RE' matches the regex RE (all repeatable)
  --expect-body RE         the body matches the regex RE
  --expect-header 'N: RE'  the response has header N with a value RE matches ('N:': has it)
  --expect-size N          the body is N bytes; a failed check is counted under its name
  --threshold 'p99<200ms'  a bound the run must keep, or exit status 3 (repeatable):
                           p50..p999, mean, min, max (200ms, 1.5s, 250us), rps, errors (0.5%,
                           or a count); <, <=, >, >=; step2.p99<50ms for a flow's step
  --abort-on-fail          stop the run once a threshold can no longer pass (an error count
                           or max latency past its bound)

Output:
)" + output_help() +
         R"(  -e FILE                  also write ab's percentile CSV (0 to 99%, ms) to FILE
  -g FILE                  also write ab's gnuplot file: a line per request (start, connect,
                           processing, total, waiting in ms; status; error): the only output
                           that keeps every request, about 70 bytes of disk each
  --prometheus ADDR        serve the live metrics for Prometheus at http://ADDR/metrics
                           (127.0.0.1:9464): requests, statuses, errors, users, in flight,
                           the latency histogram
  --html FILE              also write the run (or sweep) as one page that works offline:
                           requests/s, latency and status codes over time, the latency
                           distribution, steps, the summary and the command
  --save FILE              also write the whole run (counters, each second, the latency
                           histograms) for `stampede report` and `stampede compare`
  -d, --debug              log the first few requests and responses in full (stderr)
  -h, --help               this text
  --version                print the version

Flags take Go's forms: -c 10, -c=10, --c 10; a boolean -k, -k=true, -k=false.

Exit status: 0 the run completed (whatever the server answered), 1 it could not run,
2 a usage error or a run this machine cannot hold (nothing was sent), 3 the run ended but
a --threshold failed, 4 (compare) the second run broke a --max-* bound, 5 (report) some
shard of the run is missing or was interrupted. Ctrl-C stops the run and prints the report.
)";
}

}  // namespace stampede::cmd
