#!/usr/bin/env bash
# h2_mux.sh: HTTP/2 multiplexing, stampede -m against h2load -m, on one local nginx (h2c and h2
# over TLS), same run: requests per generator CPU-second, latency, memory per connection.
#
#   bash bench/h2_mux.sh [--quick]         # Markdown on stdout, progress on stderr
#   env: STAMPEDE (binary, default build-release/stampede; use a Release build), DURATION (s per
#        run, default 5), REPEATS (default 3), KEEP=1 keeps the raw outputs (path printed at the end).
#   --quick = 1 s runs, 1 repeat, 2,000-request memory runs: a smoke test of the script, not a result.
#
# Why this shape: `stampede -c U -m N -http2` has U users share N connections, one stream each at a
# time, so it keeps U streams in flight on N connections, as `h2load -c N -m U/N` does. Each
# scenario pairs the two with the same connections and the same streams per connection. On a
# small machine nginx is the bottleneck and req/s mostly measures it; what tells generators apart
# is the CPU each spends per request, so every run is wrapped in /usr/bin/time and the main figure
# is requests per generator CPU-second (one generator thread each: h2load -t1, stampede
# -cpuNumber 1). The tools alternate, the order rotating with each repeat.
# h2load's --log-file (its only source of percentiles) costs it one write() per request, more
# than its socket writes when it multiplexes, so the measured h2load runs go without it; one extra
# h2load run per scenario with the log gives its p50/p99 (and shows what the log costs).
# Memory, from separate runs of the same number of requests (h2load keeps a record of each request,
# so its RSS after a timed run grows with its rate): per connection, (max RSS − max RSS of the same
# tool's 1-connection, 1-stream run) / (connections − 1), which charges each connection with its
# streams (and stampede's users); and the marginal cost, (RSS with 100 connections − RSS with 10)
# / 90, at the same 100 streams in flight (the connection alone) and with 10 streams on each.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

STAMPEDE=${STAMPEDE:-$ROOT/build-release/stampede}
DURATION=${DURATION:-5}
REPEATS=${REPEATS:-3}
MEM_N=20000 # requests in each memory run (h2load keeps a record of each: the same for every run)
if [[ ${1:-} == --quick ]]; then DURATION=1 REPEATS=1 MEM_N=2000; fi
[[ $DURATION =~ ^[1-9][0-9]*$ && $REPEATS =~ ^[1-9][0-9]*$ ]] || { echo "DURATION and REPEATS: positive integers" >&2; exit 2; }
require_tools "$STAMPEDE" nginx h2load openssl python3 /usr/bin/time timeout
LIMIT=$((DURATION * 4 + 30)) # hard cap per run: a hung generator must not hang the benchmark
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

bench_work stampede-h2mux
RESULTS=$WORK/results.tsv # target, scenario, tool, conns, done, cpu_s, rps, p50, p99, rss_kb, failed
COMMANDS=$WORK/commands.txt
PY=$WORK/mux.py
: >"$RESULTS"; : >"$COMMANDS"

# Parsing, medians and the tables, in Python.
cat >"$PY" <<'EOF'
import json, re, statistics as st, sys
def time_file(p):  # /usr/bin/time -f '%U %S %M': its last line
    u, s, m = open(p).read().split("\n")[-2].split()
    return float(u) + float(s), int(m)
def percentile(values, q):  # nearest rank, as stampede reports it
    values = sorted(values)
    return values[max(0, min(len(values) - 1, int(q * len(values) + 0.5) - 1))] if values else 0.0
def parse(tool, prefix):  # -> completed, rps, p50, p99 (None: not measured), failed
    out = open(prefix + ".out").read()
    if tool.startswith("stampede"):
        j = json.load(open(prefix + ".out"))
        lat = j["latency_ms"]
        return j["requests"]["total"], j["rps"], lat["p50"], lat["p99"], j["requests"]["failed"]
    done = int(re.search(r"requests: \d+ total, \d+ started, (\d+) done", out).group(1))
    failed = sum(map(int, re.search(r"(\d+) failed, (\d+) errored, (\d+) timeout", out).groups()))
    failed += sum(map(int, re.search(r"status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", out).groups()))
    rps = float(re.search(r"finished in [\d.]+m?s, ([\d.]+) req/s", out).group(1))
    p50 = p99 = None
    if tool == "h2load+log":  # start (us), status, duration (us) per request
        ms = [int(line.split("\t")[2]) / 1000 for line in open(prefix + ".log")]
        p50, p99 = percentile(ms, 0.5), percentile(ms, 0.99)
    return done, rps, p50, p99, failed
def record(target, scenario, tool, conns, prefix):
    cpu, rss = time_file(prefix + ".time")
    done, rps, p50, p99, failed = parse(tool, prefix)
    print(target, scenario, tool, conns, done, cpu, rps, p50, p99, rss, failed, sep="\t")
def load(path):  # {(target, scenario): {tool: [run, ...]}} in file order
    rows = {}
    for line in open(path):
        tg, sc, tool, conns, done, cpu, rps, p50, p99, rss, failed = line.rstrip("\n").split("\t")
        num = lambda v: None if v == "None" else float(v)
        run = dict(conns=int(conns), done=int(done), cpu=float(cpu), rps=float(rps), rss=int(rss),
                   failed=int(failed), p50=num(p50), p99=num(p99))
        run["rpc"] = run["done"] / max(run["cpu"], 0.01)
        rows.setdefault((tg, sc), {}).setdefault(tool, []).append(run)
    return rows
def med(runs, key):
    vals = [r[key] for r in runs if r[key] is not None]
    return st.median(vals) if vals else None
fmt = lambda v: "—" if v is None else f"{v:.3f}"
def report(path):
    rows = load(path)
    cpu_table({k: v for k, v in rows.items() if k[1] != "memory"})
    memory({k[0]: v for k, v in rows.items() if k[1] == "memory"})
def cpu_table(rows):
    notes, logcost = [], []
    print("| target | streams in flight, connections | tool | requests | req/s | CPU s | req per CPU-s "
          "| ratio vs h2load | ratio per repeat | p50 ms | p99 ms | max RSS KB |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (tg, sc), tools in rows.items():
        notes += [f"{tg}, {sc}, `{t}`: {r['failed']} failed of {r['done']} ({r['rpc']:,.0f} req per CPU-s)"
                  for t, runs in tools.items() for r in runs if r["failed"]]
        ref = next(t for t in tools if t.startswith("h2load -"))
        lat = tools.get("h2load+log", [])
        ref_rpc = med([r for r in tools[ref] if not r["failed"]], "rpc")
        for t, runs in tools.items():
            clean = [r for r in runs if not r["failed"]]
            if t == "h2load+log": continue
            if not clean:
                print(f"| {tg} | {sc} | `{t}` | every run had failed requests | | | | | | | | |"); continue
            rpc = med(clean, "rpc")
            pairs = [r["rpc"] / h["rpc"] for r, h in zip(runs, tools[ref]) if not r["failed"] and not h["failed"]]
            each = " / ".join(f"{x:.2f}" for x in pairs) if t != ref else ""
            p50, p99 = (med(clean, "p50"), med(clean, "p99")) if t.startswith("stampede") else (med(lat, "p50"), med(lat, "p99"))
            ratio = f"{rpc / ref_rpc:.2f}" if ref_rpc else "—"
            print(f"| {tg} | {sc} | `{t}` | {med(clean, 'done'):,.0f} | {med(clean, 'rps'):,.0f} | {med(clean, 'cpu'):.2f} "
                  f"| {rpc:,.0f} | {ratio} | {each} | {fmt(p50)} | {fmt(p99)} | {med(clean, 'rss'):,.0f} |")
        if lat and ref_rpc:
            logcost.append(f"{tg}, {sc}: {med(lat, 'rpc'):,.0f} ({med(lat, 'rpc') / ref_rpc - 1:+.0%})")
    print("\nThe ratio divides the medians; \"ratio per repeat\" divides the runs of each repeat, which ran"
          " back to back. h2load's p50/p99 come from one extra run with `--log-file` (nearest rank);"
          " stampede's from its JSON report. The max RSS of a timed run grows with the requests h2load"
          " completed (it keeps a record of each): memory is compared in the table below, at equal requests.")
    print("\nThe `--log-file` runs' requests per CPU-second (against h2load's median without the log; one run each): "
          + "; ".join(logcost) + ".")
    if notes: print("\n**Runs with failed requests** (not in the medians):\n")
    for n in notes: print(f"- {n}")
SHAPES = [(1, 1), (10, 10), (100, 1), (10, 100), (100, 10)]  # connections, streams on each
def memory(rows):  # {target: {tool label: [run, ...]}}, every run the same total of requests
    print("\nMemory, runs of the same number of requests (`h2load -n N`, `stampede -n N/c`), max RSS KB;"
          " per connection: (RSS − RSS with 1 connection and 1 stream) / (connections − 1):\n")
    print("| target | connections × streams on each | h2load | RSS KB | KB per connection | stampede | RSS KB | KB per connection |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: | ---: |")
    rss = {}
    for tg, tools in rows.items():
        for c, m in SHAPES:
            cells = []
            for label in (f"h2load -c {c} -m {m}", f"stampede -c {c * m} -m {c}"):
                runs = [r for r in tools.get(label, []) if not r["failed"]]
                rss[tg, label.split()[0], c, m] = v = med(runs, "rss") if runs else None
                base = rss.get((tg, label.split()[0], 1, 1))
                per = f"{(v - base) / (c - 1):.1f}" if c > 1 and v is not None and base is not None else "—"
                cells.append(f"`{label}` | {'failed' if v is None else f'{v:,.0f}'} | {per}")
            print(f"| {tg} | {c} × {m} | " + " | ".join(cells) + " |")
    for what, big in (("the same 100 streams in flight (100 × 1 against 10 × 10)", (100, 1)),
                      ("each carrying 10 streams (100 × 10 against 10 × 10)", (100, 10))):
        print(f"\nMarginal memory per added connection, {what}, (RSS with 100 − RSS with 10) / 90:"
              + "".join(f" {tg} {tool} {(rss[tg, tool, *big] - rss[tg, tool, 10, 10]) / 90:.1f} KB;"
                        for tg in rows for tool in ("h2load", "stampede")
                        if rss.get((tg, tool, *big)) is not None and rss.get((tg, tool, 10, 10)) is not None).rstrip(";") + ".")
if __name__ == "__main__":  # record TARGET SCENARIO TOOL CONNS PREFIX | report FILE
    {"record": record, "report": report}[sys.argv[1]](*sys.argv[2:])
EOF

# nginx as in compare.sh (bench/lib.sh), h2c with prior knowledge (`listen PORT http2` without
# ssl) and h2 over TLS; 256 concurrent streams per connection leave room for h2load -m 100.
start_mux_nginx() {
    read -r H2C_PORT H2_PORT < <(free_ports 2)
    make_files
    start_nginx "" "http2_max_concurrent_streams 256;" "$H2C_PORT" "$H2_PORT" <<EOF
    server { listen 127.0.0.1:$H2C_PORT http2; }
$(h2_tls_server "$H2_PORT")
EOF
}

# note_cmd CMD...: as bench/lib.sh's, with paths in the repository written from its root.
note_cmd() {
    local line
    line=$(quote_cmd "$@")
    note_line "${line//$ROOT\//}"
}

# run TARGET SCENARIO TOOL CONNS STREAMS [REQUESTS]: one run on CONNS connections carrying STREAMS
# streams each: h2load -c CONNS -m STREAMS; h2load+log, the same with --log-file (for latency);
# stampede -c CONNS*STREAMS -m CONNS. For DURATION seconds, or REQUESTS in all if given.
RUN=0
run() {
    local target=$1 scenario=$2 tool=$3 c=$4 m=$5 total=${6:-} p url label
    local -a stop extra=() tls=()
    p=$WORK/run$((++RUN))
    if [[ $target == h2c ]]; then url=$H2C; else url=$H2; fi
    if [[ $tool == stampede ]]; then
        local users=$((c * m))
        [[ $target == h2c ]] || tls=(--insecure)
        if [[ -n $total ]]; then stop=(-n $((total / users))); else stop=(-n 0 -timeout "$DURATION"); fi
        timed "$p" "$STAMPEDE" -c "$users" -m "$c" -cpuNumber 1 -http2 "${tls[@]}" "${stop[@]}" --output json -u "$url"
        label="stampede -c $users -m $c"
    else
        [[ $tool == h2load ]] || extra=(--log-file "$p.log")
        if [[ -n $total ]]; then stop=(-n "$total"); else stop=(-D "$DURATION"); fi
        timed "$p" h2load -t1 -c "$c" -m "$m" "${stop[@]}" "${extra[@]}" "$url"
        if [[ $tool == h2load ]]; then label="h2load -c $c -m $m"; else label=$tool; fi
    fi
    python3 "$PY" record "$target" "$scenario" "$label" "$c" "$p" >>"$RESULTS"
}

# pair TARGET SCENARIO REPEAT CONNS STREAMS [REQUESTS]: both tools, in an order that alternates
# with the repeat number, so that neither always runs first.
pair() {
    local target=$1 scenario=$2 rep=$3 t
    local -a order=(h2load stampede)
    ((rep % 2 == 0)) || order=(stampede h2load)
    for t in "${order[@]}"; do
        log "repeat $((rep + 1))/$REPEATS: $target, $scenario: $t"
        run "$target" "$scenario" "$t" "${@:4}"
    done
}

# The scenarios (name|connections streams-on-each): both tools with the same connections and the
# same streams on each. Then the shapes of the memory runs (connections streams-on-each).
SCENARIOS=(
    "1 stream, 1 connection|1 1"
    "100 streams on 10 connections|10 10"
    "100 streams on 100 connections|100 1"
    "1000 streams on 10 connections|10 100"
    "1000 streams on 100 connections|100 10"
)
SHAPES=("1 1" "10 10" "100 1" "10 100" "100 10")

start_mux_nginx
H2C=http://127.0.0.1:$H2C_PORT/index.html
H2=https://127.0.0.1:$H2_PORT/index.html
LOAD_BEFORE=$(uptime | sed 's/.*load average: //')
log "nginx on $H2C (h2c), $H2 (h2); DURATION=${DURATION}s REPEATS=$REPEATS; stampede: $STAMPEDE; load $LOAD_BEFORE"

for ((rep = 0; rep < REPEATS; rep++)); do
    for target in h2c h2; do
        for spec in "${SCENARIOS[@]}"; do
            IFS='|' read -r name shape <<<"$spec"
            read -r -a cm <<<"$shape"
            pair "$target" "$name" "$rep" "${cm[@]}"
        done
    done
done
for target in h2c h2; do # h2load's latency, from its per-request log
    for spec in "${SCENARIOS[@]}"; do
        IFS='|' read -r name shape <<<"$spec"
        read -r -a cm <<<"$shape"
        log "latency: $target, $name: h2load --log-file"
        run "$target" "$name" h2load+log "${cm[@]}"
    done
done
for ((rep = 0; rep < REPEATS; rep++)); do # memory: every run the same number of requests
    for target in h2c h2; do
        for shape in "${SHAPES[@]}"; do
            read -r -a cm <<<"$shape"
            pair "$target" memory "$rep" "${cm[@]}" "$MEM_N"
        done
    done
done
LOAD_AFTER=$(uptime | sed 's/.*load average: //')

cat <<EOF
### Results ($(date -u '+%Y-%m-%d %H:%M UTC'), $(machine))

nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), 1 worker, 612-byte page, http2_max_concurrent_streams 256;
$(h2load --version | head -1); $("$STAMPEDE" --version). One generator thread each.
Load average (1, 5, 15 min) before: $LOAD_BEFORE; after: $LOAD_AFTER.
Each figure is the median of $REPEATS run(s) of ${DURATION} s. The ratio compares requests per
CPU-second with the h2load row of the same target and scenario (same connections, same streams
per connection). Memory runs: $MEM_N requests each.

EOF
python3 "$PY" report "$RESULTS"
cat <<EOF

Commands (each under \`/usr/bin/time -f '%U %S %M'\`; nginx ports chosen free per run):

\`\`\`
$(cat "$COMMANDS")
\`\`\`
EOF
