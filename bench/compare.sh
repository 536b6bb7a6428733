#!/usr/bin/env bash
# compare.sh: stampede vs wrk (and ab, and the bare epoll probe for new connections) over HTTP/1.1
# and vs h2load over HTTP/2, on one local nginx:
# requests per generator CPU-second, latency, memory.
#
#   bash bench/compare.sh [--quick]        # Markdown on stdout, progress on stderr
#   env: STAMPEDE (binary, default build/stampede; use a Release build), DURATION (s, default 5),
#        REPEATS (default 3), KEEP=1 keeps the raw outputs (path printed at the end), PIN=1 (below),
#        ONLY=REGEX runs only the scenarios whose names match (and no memory runs unless it
#        matches "memory"): for measuring one lever at a time.
#   --quick = 1 s, 1 repeat, a 10x smaller "flat RSS" run: a smoke test of the script, not a result.
# With REPEATS > 1 a second table gives each round's ratios (stampede / wrk, and / the probe where it
# ran): on a shared machine whole rounds move together, and a ratio within a round moves less.
#
# Why this shape: on a small machine the server is the bottleneck, so req/s mostly measures nginx.
# What tells generators apart is how much CPU each spends per request, so every run is wrapped in
# /usr/bin/time and we report requests per generator CPU-second; each generator gets one thread.
# PIN=1 runs nginx on CPU 0 and the generator on CPU 1 (the default leaves both to the scheduler,
# as users run tools). Pinning moves the kernel's loopback work between the two processes and
# changes every figure: compare ratios within one mode only (docs/benchmarks.md has both).
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

STAMPEDE=${STAMPEDE:-$ROOT/build/stampede}
DURATION=${DURATION:-5}
REPEATS=${REPEATS:-3}
MEM_BIG_N=100000 # requests per user in the "RSS must stay flat" run
if [[ ${1:-} == --quick ]]; then DURATION=1 REPEATS=1 MEM_BIG_N=10000; fi
[[ $DURATION =~ ^[1-9][0-9]*$ && $REPEATS =~ ^[1-9][0-9]*$ ]] || { echo "DURATION and REPEATS: positive integers" >&2; exit 2; }
require_tools "$STAMPEDE" nginx wrk ab h2load openssl python3 /usr/bin/time timeout g++
LIMIT=$((DURATION * 4 + 30)) # hard cap per run: a hung generator must not hang the benchmark
NGINX_CPU=''
if [[ ${PIN:-0} == 1 ]] && (($(nproc) >= 2)); then PINNED=(taskset -c 1) NGINX_CPU='worker_cpu_affinity 01;'; fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true # -c 1000 needs >1000 descriptors

bench_work stampede-bench
RESULTS=$WORK/results.tsv # scenario, tool, requests, cpu_s, rps, p50, p99, rss_kb, errors
COMMANDS=$WORK/commands.txt
PY=$WORK/bench.py
: >"$RESULTS"; : >"$COMMANDS"

# Parsing and statistics live in Python: wrk, ab and stampede each print differently.
cat >"$PY" <<'EOF'
import json, re, statistics as st, sys
def time_file(p):  # /usr/bin/time -f '%U %S %M'; its last line (a "Command exited" line may precede it)
    u, s, m = open(p).read().split("\n")[-2].split()
    return float(u) + float(s), int(m)
def wrk_ms(v):
    n, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", v).groups()
    return float(n) * {"us": 1e-3, "ms": 1, "s": 1e3, "m": 6e4}[unit]
def grab(pat, text, default="0"):
    m = re.search(pat, text, re.M)
    return m.group(1) if m else default
def percentile(values, q):  # nearest rank, as stampede reports it
    values = sorted(values)
    return values[max(0, min(len(values) - 1, int(q * len(values) + 0.5) - 1))] if values else 0.0
def parse(tool, prefix):  # -> requests, rps, p50, p99, errors from the tool's own report
    out = open(prefix + ".out").read()
    if tool == "stampede":
        j = json.load(open(prefix + ".out"))
        return j["requests"]["total"], j["rps"], j["latency_ms"]["p50"], j["latency_ms"]["p99"], j["requests"]["failed"]
    if tool == "h2load":  # no percentiles in its report: from its --log-file (start, status, duration us)
        ms = [int(line.split("\t")[2]) / 1000 for line in open(prefix + ".log")]
        errs = sum(map(int, re.search(r"(\d+) failed, (\d+) errored, (\d+) timeout", out).groups()))
        return (int(grab(r"requests: (\d+) total", out)), float(grab(r"finished in [\d.]+s, ([\d.]+) req/s", out)),
                percentile(ms, 0.5), percentile(ms, 0.99), errs)
    if tool == "wrk":
        errs = sum(map(int, re.findall(r"(?:connect|read|write|timeout) (\d+)", grab(r"^\s*Socket errors:(.*)$", out, ""))))
        errs += int(grab(r"Non-2xx or 3xx responses: (\d+)", out))
        return (int(grab(r"(\d+) requests in", out)), float(grab(r"Requests/sec:\s+([\d.]+)", out)),
                wrk_ms(grab(r"^\s+50%\s+(\S+)", out)), wrk_ms(grab(r"^\s+99%\s+(\S+)", out)), errs)
    if tool == "probe":  # bench/newconn_probe.cpp: "N requests in S s; ..."; it counts whole responses only
        n = int(float(grab(r"^([\d.]+) requests in", out)))
        return n, n / float(grab(r"requests in ([\d.]+) s", out, "1")), 0.0, 0.0, 0
    errs = int(grab(r"Failed requests:\s+(\d+)", out)) + int(grab(r"Non-2xx responses:\s+(\d+)", out))
    return (int(grab(r"Complete requests:\s+(\d+)", out)), float(grab(r"Requests per second:\s+([\d.]+)", out)),
            float(grab(r"^\s+50%\s+(\d+)", out)), float(grab(r"^\s+99%\s+(\d+)", out)), errs)
def record(scenario, tool, prefix):
    cpu, rss = time_file(prefix + ".time")
    req, rps, p50, p99, errs = parse(tool, prefix)
    print(scenario, tool, req, cpu, rps, p50, p99, rss, errs, sep="\t")
def report(path):
    rows = {}
    for line in open(path):
        sc, tool, req, cpu, rps, p50, p99, rss, errs = line.rstrip("\n").split("\t")
        rows.setdefault(sc, {}).setdefault(tool, []).append(
            (float(rps), float(cpu), float(req) / max(float(cpu), 0.01), float(p50), float(p99), int(errs),
             int(rss) / 1024))
    print("| scenario | tool | req/s | CPU s | req per CPU-s | ratio vs wrk or h2load | p50 ms | p99 ms | max RSS MB |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    notes = []
    for sc, tools in rows.items():
        med = {t: [st.median(col) for col in zip(*runs)] for t, runs in tools.items()}
        ref = next((r for r in ("wrk", "h2load") if r in med), None)  # the scenario's reference tool
        for t, (rps, cpu, rpc, p50, p99, _, rss) in med.items():
            ratio = f"{rpc / med[ref][2]:.2f}" if ref else "—"
            print(f"| {sc} | {t} | {rps:,.0f} | {cpu:.2f} | {rpc:,.0f} | {ratio} | {p50:.3f} | {p99:.3f} | {rss:.1f} |")
            if (e := sum(r[5] for r in tools[t])): notes.append(f"{t} in '{sc}': {e} failed requests over {len(tools[t])} runs")
            if ref and rps < 0.2 * med[ref][0]:  # same server, same connections: a broken run
                notes.append(f"{t} in '{sc}': under a fifth of {ref}'s req/s; check its raw output (KEEP=1)")
    if "ab" in {t for tools in rows.values() for t in tools}:
        print("\nab prints its percentiles in whole milliseconds.")
    each_round(rows)
    for n in notes: print(f"\n**Warning**: {n}")
def each_round(rows):  # whole rounds move together on a shared machine: a ratio within one round says more
    lines = []
    for sc, tools in rows.items():
        ref = next((r for r in ("wrk", "h2load") if r in tools), None)
        for base in (ref, "probe"):
            for t, runs in tools.items():
                if base in tools and t != base and t != "probe" and len(runs) > 1:
                    ratios = ", ".join(f"{a[2] / b[2]:.2f}" for a, b in zip(runs, tools[base]))
                    lines.append(f"| {sc} | {t} / {base} | {ratios} |")
    if lines:
        print("\nRequests per CPU-second, each round's ratio (the tools of a round ran one after the other):\n")
        print("| scenario | ratio | each round |\n| --- | --- | --- |")
        print("\n".join(lines))
if __name__ == "__main__":  # record SCENARIO TOOL PREFIX | report FILE | rss PREFIX | reqs|rps TOOL PREFIX
    a = sys.argv[2:]
    {"record": lambda: record(*a), "report": lambda: report(*a), "rss": lambda: print(time_file(a[0] + ".time")[1]),
     "reqs": lambda: print(parse(*a)[0]), "rps": lambda: print(parse(*a)[1])}[sys.argv[1]]()
EOF

# nginx (bench/lib.sh) with HTTP/1.1 and TLS, and HTTP/2 as h2c and over TLS, in $WORK.
start_compare_nginx() {
    read -r HTTP_PORT TLS_PORT H2C_PORT H2_PORT < <(free_ports 4)
    make_files
    start_nginx "$NGINX_CPU" "" "$H2_PORT" "$HTTP_PORT" <<EOF
    server {
        # backlog: the -c 10000 users connect at once; nginx's default (511) drops their SYNs,
        # sent again 1 s and 3 s later, and most of the run would be users waiting in connect().
        listen 127.0.0.1:$HTTP_PORT backlog=4096;
        listen 127.0.0.1:$TLS_PORT ssl;
        listen 127.0.0.1:$H2C_PORT http2;
        ssl_certificate $WORK/cert.pem;
        ssl_certificate_key $WORK/key.pem;
    }
$(h2_tls_server "$H2_PORT")
EOF
}

# A run's number, for its files' names (each run goes through timed, bench/lib.sh; h2load's
# --log-file, $WORK/runN.log, makes each h2load command a line of its own under "Commands").
RUN=0

# run_TOOL SCENARIO MODE CONNS URL: one measured run; MODE is ka (keep-alive), close, tls, or
# h2 (HTTP/2: h2c or TLS by the URL's scheme; one stream at a time per connection, as h2load -m 1).
run_wrk() {
    local p=$WORK/run$((++RUN)) hdr=()
    [[ $2 != close && $2 != tlsclose ]] || hdr=(-H 'Connection: close')
    timed "$p" wrk -t1 -c "$3" -d "${DURATION}s" --latency "${hdr[@]}" "$4"
    python3 "$PY" record "$1" wrk "$p" >>"$RESULTS"
    [[ $1 != "keep-alive -c 10" ]] || AB_RATE=$(python3 "$PY" rps wrk "$p")
}
run_stampede() {
    local p=$WORK/run$((++RUN)) flags=()
    case $2 in
    ka) flags=(-k) ;; tls) flags=(-k --insecure) ;; tlsclose) flags=(--insecure) ;;
    h2) flags=(-k -http2 --insecure) ;;
    esac
    timed "$p" "$STAMPEDE" -c "$3" -n 0 -timeout "$DURATION" "${flags[@]}" -cpuNumber 1 --output json -u "$4"
    python3 "$PY" record "$1" stampede "$p" >>"$RESULTS"
}
run_h2load() {
    local p=$WORK/run$((++RUN))
    timed "$p" h2load -t1 -c "$3" -m1 -D "$DURATION" --log-file "$p.log" "$4"
    python3 "$PY" record "$1" h2load "$p" >>"$RESULTS"
}
# The kernel's floor for a new connection per request (docs/benchmarks.md, round two): the bare
# epoll probe, built here from bench/newconn_probe.cpp, run beside the tools in the same session.
run_probe() {
    local p=$WORK/run$((++RUN)) port=${4##*:}
    [[ -x $WORK/newconn_probe ]] || g++ -O2 -std=c++20 "$ROOT/bench/newconn_probe.cpp" -o "$WORK/newconn_probe"
    timed "$p" "$WORK/newconn_probe" "${port%/}" "$3" "$DURATION"
    python3 "$PY" record "$1" probe "$p" >>"$RESULTS"
}
AB_N='' AB_RATE=''
run_ab() { # ab counts requests, not seconds: size -n from wrk's rate (measured first) to last ~DURATION
    local p=$WORK/run$((++RUN))
    [[ -n $AB_N ]] || AB_N=$(python3 -c "print(max(1000, int(${AB_RATE:-10000} * $DURATION)))")
    timed "$p" ab -k -c "$3" -n "$AB_N" "$4"
    python3 "$PY" record "$1" ab "$p" >>"$RESULTS"
}

# One scenario, one repeat: the tools in an order rotated by the repeat number, so that neither
# tool always runs first (page cache, CPU frequency, other users of a shared machine).
scenario() {
    local name=$1 mode=$2 conns=$3 url=$4 rep=$5; shift 5
    local tools=("$@") i
    [[ -z ${ONLY:-} || $name =~ $ONLY ]] || return 0
    for ((i = 0; i < ${#tools[@]}; i++)); do
        local t=${tools[(i + rep) % ${#tools[@]}]}
        log "repeat $((rep + 1))/$REPEATS: $name: $t"
        "run_$t" "$name" "$mode" "$conns" "$url"
    done
}

# rss_TOOL VAR ...: max RSS in KB of one run, into VAR (not $(...): a subshell would escape the trap).
rss_stampede() { # VAR CONNS REQUESTS_PER_USER [URL FLAGS...]; stampede must complete every request
    local p=$WORK/mem$((++RUN)) got
    timed "$p" "$STAMPEDE" -c "$2" -n "$3" -k -cpuNumber 1 --output json -u "${4:-$PLAIN}" "${@:5}"
    got=$(python3 "$PY" reqs stampede "$p")
    ((got == $2 * $3)) || echo "compare.sh: warning: stampede -c $2 -n $3 completed $got requests" >&2
    printf -v "$1" %s "$(python3 "$PY" rss "$p")"
}
rss_wrk() { # VAR CONNS
    local p=$WORK/mem$((++RUN))
    timed "$p" wrk -t1 -c "$2" -d 2s "$PLAIN"
    printf -v "$1" %s "$(python3 "$PY" rss "$p")"
}
rss_wrk_start() { # VAR: wrk's one connection for a second, as small as its run gets
    local p=$WORK/mem$((++RUN))
    timed "$p" wrk -t1 -c 1 -d 1s "$PLAIN"
    printf -v "$1" %s "$(python3 "$PY" rss "$p")"
}
rss_h2load() { # VAR CONNS
    local p=$WORK/mem$((++RUN))
    timed "$p" h2load -t1 -c "$2" -m1 -D 2 "$H2C"
    printf -v "$1" %s "$(python3 "$PY" rss "$p")"
}
per_conn() { python3 -c "print(f'{($2 - $1) / 900:.1f}')"; } # KB per connection from -c 100 to -c 1000
growth() { python3 -c "print(f'{$2 - $1:+d} KB, {($2 - $1) / $1:+.1%}')"; }

start_compare_nginx
PLAIN=http://127.0.0.1:$HTTP_PORT/
TLS=https://127.0.0.1:$TLS_PORT/
H2C=http://127.0.0.1:$H2C_PORT/
H2=https://127.0.0.1:$H2_PORT/
log "nginx on $PLAIN, $TLS, $H2C (h2c), $H2 (h2); DURATION=${DURATION}s REPEATS=$REPEATS; stampede: $STAMPEDE"

for ((rep = 0; rep < REPEATS; rep++)); do
    scenario "keep-alive -c 1" ka 1 "$PLAIN" "$rep" wrk stampede
    scenario "keep-alive -c 10" ka 10 "$PLAIN" "$rep" wrk stampede ab
    scenario "keep-alive -c 100" ka 100 "$PLAIN" "$rep" wrk stampede
    scenario "keep-alive -c 10000" ka 10000 "$PLAIN" "$rep" wrk stampede
    scenario "new connection per request -c 10" close 10 "$PLAIN" "$rep" wrk stampede probe
    scenario "new connection per request -c 100" close 100 "$PLAIN" "$rep" wrk stampede probe
    scenario "HTTPS keep-alive -c 10" tls 10 "$TLS" "$rep" wrk stampede
    scenario "HTTPS keep-alive -c 100" tls 100 "$TLS" "$rep" wrk stampede
    scenario "HTTPS new connection per request -c 10" tlsclose 10 "$TLS" "$rep" wrk stampede
    scenario "HTTP/2 h2c -c 1" h2 1 "$H2C" "$rep" h2load stampede
    scenario "HTTP/2 h2c -c 10" h2 10 "$H2C" "$rep" h2load stampede
    scenario "HTTP/2 h2c -c 100" h2 100 "$H2C" "$rep" h2load stampede
    scenario "HTTP/2 TLS -c 10" h2 10 "$H2" "$rep" h2load stampede
done

MEMORY=1
[[ -z ${ONLY:-} || memory =~ $ONLY ]] || MEMORY=0
if ((MEMORY)); then
    log "memory runs"
    LIMIT=300 # these run by count, not time: 1M requests may take a while on a busy machine
    rss_stampede S_START 1 1
    rss_wrk_start W_START
    rss_stampede S_SMALL 10 1000
    rss_stampede S_BIG 10 "$MEM_BIG_N"
    rss_stampede S_100 100 200
    rss_stampede S_1000 1000 200
    rss_wrk W_100 100
    rss_wrk W_1000 1000
    rss_stampede S2_100 100 200 "$H2C" -http2
    rss_stampede S2_1000 1000 200 "$H2C" -http2
    rss_h2load H_100 100
    rss_h2load H_1000 1000
fi

cat <<EOF
### Results ($(date -u +%Y-%m-%d), $(machine))

nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), 1 worker, 612-byte page; $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2);
$(ab -V | head -1 | sed 's/^This is //; s/ <.*//'); $(h2load --version | head -1); $("$STAMPEDE" --version). One generator thread each.
Each figure is the median of $REPEATS run(s) of ${DURATION} s. The ratio compares requests per CPU-second
with wrk (HTTP/1.1) or h2load (HTTP/2, \`-m 1\`: one request at a time per connection, as each stampede user).

EOF
python3 "$PY" report "$RESULTS"
if ((MEMORY)); then cat <<EOF

Memory (max RSS, /usr/bin/time %M, one generator thread):

- at start-up: stampede \`-c 1 -n 1 -k\` $S_START KB, wrk \`-t1 -c 1 -d 1s\` $W_START KB
- stampede \`-k -c 10\`: \`-n 1000\` $S_SMALL KB, \`-n $MEM_BIG_N\` $S_BIG KB ($(growth "$S_SMALL" "$S_BIG"); flat is good)
- stampede per connection: (\`-c 1000\` $S_1000 KB − \`-c 100\` $S_100 KB) / 900 = $(per_conn "$S_100" "$S_1000") KB (\`-k -n 200\`)
- wrk per connection: (\`-c 1000\` $W_1000 KB − \`-c 100\` $W_100 KB) / 900 = $(per_conn "$W_100" "$W_1000") KB (\`-t1 -d 2s\`)
- stampede per HTTP/2 connection (h2c): (\`-c 1000\` $S2_1000 KB − \`-c 100\` $S2_100 KB) / 900 = $(per_conn "$S2_100" "$S2_1000") KB (\`-k -http2 -n 200\`)
- h2load per connection (h2c): (\`-c 1000\` $H_1000 KB − \`-c 100\` $H_100 KB) / 900 = $(per_conn "$H_100" "$H_1000") KB (\`-t1 -m1 -D 2\`)
EOF
fi
cat <<EOF

Commands (each run under \`/usr/bin/time -f '%U %S %M'\`$( ((${#PINNED[@]})) && echo " and \`${PINNED[*]}\` (nginx on CPU 0)"); nginx ports chosen free per run):

\`\`\`
$(cat "$COMMANDS")
\`\`\`
EOF
