#!/usr/bin/env bash
# held_memory.sh: the generator's memory per held connection (--hold), HTTP/2 over h2c and TLS,
# WebSocket over TLS, and per held event stream (--sse: over HTTP/1.1, and over h2c on a connection
# each or shared by -m), for one stampede binary or two side by
# side (before and after a change).
#
#   bash bench/held_memory.sh [--quick]    # Markdown on stdout, progress on stderr
#   env: STAMPEDE (binary, default build-release/stampede; use a Release build), BEFORE (a second
#        binary, measured in turn with the first), N (connections, default 2000), REPEATS
#        (default 3), ONLY (the scenarios whose names contain it, e.g. ONLY=SSE), KEEP=1 keeps the
#        raw outputs.
#   --quick = 200 connections, 1 repeat: a smoke test of the script, not a result.
#
# Each run opens N connections with one request or message each and holds them 6 s
# (`-c N -n 1 -k --hold 6 --output json`); an event stream's, N streams that read their first
# event and wait 6 s for the next (`--sse -c N -z 6s -k`, serve's /sse with a minute between
# events). Its figure is (the largest resident size of the
# per-second rows - connections.resident_bytes_at_start) / the most connections open in a row:
# what the run holds per connection, the heap the ramp left behind included (docs/benchmarks.md,
# "Held HTTP/2 connections"). Servers: nghttpd --no-tls for h2c (the documented figure), and
# `stampede serve` (the first binary) for h2 and wss over TLS and for the event streams. Runs
# alternate between the binaries.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

STAMPEDE=${STAMPEDE:-$ROOT/build-release/stampede}
BEFORE=${BEFORE:-}
N=${N:-2000}
REPEATS=${REPEATS:-3}
if [[ ${1:-} == --quick ]]; then N=200 REPEATS=1; fi
[[ $N =~ ^[1-9][0-9]*$ && $REPEATS =~ ^[1-9][0-9]*$ ]] || { echo "N and REPEATS: positive integers" >&2; exit 2; }
require_tools "$STAMPEDE" ${BEFORE:+"$BEFORE"} nghttpd python3 timeout
LIMIT=60
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

bench_work stampede-held
COMMANDS=$WORK/commands.txt
: >"$COMMANDS"
make_files
NGHTTPD_PID=''
cleanup_more() { stop_pid "$NGHTTPD_PID"; }

read -r H2C_PORT < <(free_ports 1)
nghttpd --no-tls -d "$WORK/www" "$H2C_PORT" >"$WORK/nghttpd.log" 2>&1 &
NGHTTPD_PID=$!
start_serve --tls-port 0
TLS_PORT=$(sed -n 's|.* and https://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$WORK/serve.out")
[[ -n $TLS_PORT ]] || { echo "held_memory.sh: stampede serve gave no TLS port" >&2; exit 1; }
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$H2C_PORT") 2>/dev/null && break; sleep 0.1; done

# The scenarios: name, then the arguments after `-c N`.
HOLD="-n 1 -k --hold 6"
SCENARIOS=(
    "h2c (nghttpd)|$HOLD -http2 -u http://127.0.0.1:$H2C_PORT/index.html"
    "h2 over TLS (stampede serve)|$HOLD -http2 --insecure -u https://127.0.0.1:$TLS_PORT/"
    "wss (stampede serve)|$HOLD --insecure -data held -u wss://127.0.0.1:$TLS_PORT/echo"
    "SSE stream (stampede serve)|--sse -z 6s -k -u http://127.0.0.1:$PORT/sse?events=1000&interval=60000"
    "SSE stream over h2c, a connection each (stampede serve)|--sse -http2 -z 6s -k -u http://127.0.0.1:$PORT/sse?events=1000&interval=60000"
    "SSE streams over h2c, -m 10 (stampede serve)|--sse -http2 -m 10 -z 6s -k -u http://127.0.0.1:$PORT/sse?events=1000&interval=60000"
)
BINARIES=("$STAMPEDE")
[[ -z $BEFORE ]] || BINARIES=("$BEFORE" "$STAMPEDE")

# figure JSON: "KIB_PER_CONNECTION HELD FAILED OPENED_PER_S" of a run's report: the opening rate
# is the connections (streams) opened over the time the last of them opened at.
figure() {
    python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["connections"]
rows = c["per_second"]
held = max(r["open"] for r in rows)
peak = max(r["resident_bytes"] for r in rows)
# Streams sharing connections (-m) opened after their connections: no figure for them.
rate = c["opened"] / c["last_opened_s"] if c.get("last_opened_s") and c["opened"] >= held else 0
print("%.1f %d %d %.0f" % ((peak - c["resident_bytes_at_start"]) / 1024 / max(held, 1), held,
                           c["failed"], rate))' "$1"
}

RESULTS=$WORK/results.tsv
: >"$RESULTS"
log "servers: nghttpd h2c on $H2C_PORT, stampede serve TLS on $TLS_PORT; N=$N REPEATS=$REPEATS"
run=0
for ((rep = 0; rep < REPEATS; rep++)); do
    for scenario in "${SCENARIOS[@]}"; do
        name=${scenario%%|*}
        [[ $name == *"${ONLY:-}"* ]] || continue
        read -ra args <<<"${scenario#*|}"
        for binary in "${BINARIES[@]}"; do
            # A binary from before --sse has no event streams to hold.
            [[ $name != SSE* ]] || "$binary" help --sse >/dev/null 2>&1 || continue
            run=$((run + 1))
            timed "$WORK/run$run" "$binary" -c "$N" "${args[@]}" --output json
            read -r kib held failed rate < <(figure "$WORK/run$run.out")
            tag=after
            [[ $binary == "$BEFORE" ]] && tag=before
            [[ -n $BEFORE ]] || tag=stampede
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tag" "$kib" "$held" "$failed" "$rate" >>"$RESULTS"
            log "$name, $tag: $kib KiB per held connection ($held held, $failed failed, $rate opened a second)"
        done
    done
done

cat <<EOF
### Held connections, KiB per connection in the generator ($(date -u +%Y-%m-%d), $(machine))

N=$N connections, each held 6 s after one request or message (an SSE stream: after its first
event); median of $REPEATS runs (all runs). Opened a second: the connections opened over the
time the last of them opened at, from the run's start (median; "-" for streams sharing
connections, which open after them).

| scenario | binary | KiB per held connection | runs | held | failed | opened a second |
|---|---|---|---|---|---|---|
$(python3 -c 'import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, tag, kib, held, failed, rate = line.rstrip("\n").split("\t")
    runs[(name, tag)].append((float(kib), int(held), int(failed), float(rate)))
for (name, tag), rs in runs.items():
    kibs = [r[0] for r in rs]
    rate = statistics.median(r[3] for r in rs)
    print("| %s | %s | **%.1f** | %s | %d | %d | %s |" % (name, tag, statistics.median(kibs),
          " ".join("%.1f" % k for k in kibs), min(r[1] for r in rs), sum(r[2] for r in rs),
          "%.0f" % rate if rate else "-"))' "$RESULTS")

Commands (\$WORK is a temporary directory):
\`\`\`
$(cat "$COMMANDS")
\`\`\`
EOF
