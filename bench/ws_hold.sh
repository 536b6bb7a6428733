#!/usr/bin/env bash
# ws_hold.sh: held WebSocket connections at scale, against the built-in target (`stampede serve`):
#   (a) one stampede process holding ONE connections (default 19,000) for HOLD_A seconds;
#   (b) TOTAL connections (default 100,000) held at once on this machine, by several stampede
#       processes of at most PER_PROCESS connections each, each bound to its own loopback source
#       address (--source-ips 127.0.0.2, 127.0.0.3, ...), to `stampede serve --workers W`.
# It reports the time to open them all, none lost (the generators' JSON reports, summed), resident
# memory per connection (generator, server) and the kernel's memory for the sockets.
#
#   bash bench/ws_hold.sh [--quick] [a|b]     # Markdown on stdout, progress on stderr
#   env: STAMPEDE (default build-release/stampede, else build/stampede), ONE (19000), HOLD_A (20 s),
#        TOTAL (100000), PER_PROCESS (17000), PER_WORKER (15000: W = ceil(TOTAL / PER_WORKER)),
#        HOLD_B (60 s: each connection's hold after its message; must outlast the opening of all),
#        KEEP=1 keeps the raw outputs.
#   --quick = ONE=2000 HOLD_A=3 TOTAL=6000 PER_PROCESS=2000 PER_WORKER=2000 HOLD_B=8: checks the
#   script works, not a result.
#
# Why this shape: a process may hold at most `ulimit -Hn` descriptors (20,000 here, and it cannot
# be raised here), and one source address has only the local port range's ports (28,232 here) to
# one server address and port. So the server runs as several processes (serve --workers, sharing
# the port by SO_REUSEPORT, each with its own descriptor budget) and each generator process holds
# fewer than 20,000 connections from its own source address. Each generator sends one 2-byte
# message per connection (so each connection is known to work end to end), then holds it; every
# run is bounded (--hold, -timeout, and `timeout` around it) and stops by itself. While they run,
# the script samples once a second the server side's established connections (ss), the server
# processes' resident memory (/proc/PID/status), /proc/net/sockstat and /proc/meminfo's Slab;
# the kernel's figures are machine-wide, so other work on a shared machine adds noise to them.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${STAMPEDE:-} ]]; then
    STAMPEDE=$ROOT/build-release/stampede
    [[ -x $STAMPEDE ]] || STAMPEDE=$ROOT/build/stampede
fi
PARTS=ab
for arg in "$@"; do
    case $arg in
        --quick) : "${ONE:=2000}" "${HOLD_A:=3}" "${TOTAL:=6000}" "${PER_PROCESS:=2000}" "${PER_WORKER:=2000}" "${HOLD_B:=8}" ;;
        a | b) PARTS=$arg ;;
        *) echo "usage: ws_hold.sh [--quick] [a|b]" >&2; exit 2 ;;
    esac
done
ONE=${ONE:-19000} HOLD_A=${HOLD_A:-20}
TOTAL=${TOTAL:-100000} PER_PROCESS=${PER_PROCESS:-17000} PER_WORKER=${PER_WORKER:-15000} HOLD_B=${HOLD_B:-60}
for v in ONE HOLD_A TOTAL PER_PROCESS PER_WORKER HOLD_B; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "ws_hold.sh: $v must be a positive integer" >&2; exit 2; }
done
for tool in "$STAMPEDE" ss python3 /usr/bin/time timeout; do
    command -v "$tool" >/dev/null || { echo "ws_hold.sh: missing $tool" >&2; exit 1; }
done
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
FD_LIMIT=$(ulimit -Hn)
read -r PORT_LO PORT_HI </proc/sys/net/ipv4/ip_local_port_range
PORTS=$((PORT_HI - PORT_LO + 1))
WORKERS=$(((TOTAL + PER_WORKER - 1) / PER_WORKER))
GENERATORS=$(((TOTAL + PER_PROCESS - 1) / PER_PROCESS))
# Each process needs a few descriptors beyond its connections (listeners, epoll, stdio, ...).
if [[ $PARTS == *a* ]] && ((ONE > FD_LIMIT - 100)); then echo "ws_hold.sh: ONE=$ONE does not fit $FD_LIMIT descriptors a process" >&2; exit 2; fi
if [[ $PARTS == *b* ]]; then
    ((PER_PROCESS <= FD_LIMIT - 100 && PER_WORKER <= FD_LIMIT - 500)) ||
        { echo "ws_hold.sh: PER_PROCESS=$PER_PROCESS or PER_WORKER=$PER_WORKER does not fit $FD_LIMIT descriptors a process" >&2; exit 2; }
    ((PER_PROCESS <= PORTS)) || { echo "ws_hold.sh: PER_PROCESS=$PER_PROCESS is more than the $PORTS local ports of one source address" >&2; exit 2; }
    ((GENERATORS <= 250)) || { echo "ws_hold.sh: $GENERATORS generators: too many source addresses" >&2; exit 2; }
fi
# Memory: measured on this machine, about 9 KiB a connection in the generator, 3.5 KiB in the
# server and 5 KiB in the kernel (both ends); ask for 4 times that, and never the last 2 GiB.
NEED_KIB=$(((${TOTAL} > ONE ? TOTAL : ONE) * 4 * 18 + 2 * 1024 * 1024))
AVAIL_KIB=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
((AVAIL_KIB >= NEED_KIB)) || { echo "ws_hold.sh: $((AVAIL_KIB / 1024)) MiB available, want $((NEED_KIB / 1024)) MiB" >&2; exit 2; }

WORK=$(mktemp -d -t stampede-wshold.XXXXXX)
SERVER_PID='' GEN_PIDS=()
cleanup() {
    local p
    for p in "${GEN_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${GEN_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    if [[ -n $SERVER_PID ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    if [[ ${KEEP:-} == 1 ]]; then echo "ws_hold.sh: raw outputs kept in $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
log() { echo "[ws_hold] $*" >&2; }
PY=$WORK/ws_hold.py

cat >"$PY" <<'EOF'
import json, sys
def gen(path):
    """One generator's JSON report -> its totals, its time to open all, its resident KiB per connection."""
    j = json.load(open(path))
    c = j["connections"]
    series = c.get("per_second", [])
    start = c.get("resident_bytes_at_start", 0)
    users = j["users"] if "users" in j else None
    peak = max(series, key=lambda s: (s["open"], s["resident_bytes"]), default=None)
    full = next((s for s in series if peak and s["open"] >= peak["open"]), None)
    kib = (peak["resident_bytes"] - start) / 1024 / peak["open"] if peak and peak["open"] else 0.0
    return dict(opened=c.get("opened", 0), open_at_end=c.get("open_at_end", 0), failed=c.get("failed", 0),
                closed_by_server=c.get("closed_by_server", 0), failed_by_kind=c.get("failed_by_kind", {}),
                ok=j["requests"]["succeeded"], bad=j["requests"]["failed"],
                peak_open=peak["open"] if peak else 0, open_s=full["elapsed_s"] if full else 0.0,
                first_s=series[0]["opened"] if series else 0, kib=kib, start_kib=start / 1024,
                peak_kib=peak["resident_bytes"] / 1024 if peak else 0, connect=j.get("phases_ms", {}).get("connect", {}),
                stop=j.get("stop_reason", ""))
def time_file(p):  # /usr/bin/time -f '%e %U %S %M'
    e, u, s, m = open(p).read().split("\n")[-2].split()
    return float(e), float(u), float(s), int(m)
if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "gen":  # PREFIX: one line, tab-separated, for the shell and the table
        g = gen(args[0] + ".out"); e, u, s, m = time_file(args[0] + ".time")
        con = g["connect"]
        print(g["opened"], g["open_at_end"], g["failed"], g["closed_by_server"], json.dumps(g["failed_by_kind"], separators=(",", ":")),
              g["ok"], g["bad"], g["peak_open"], g["open_s"], g["first_s"], f"{g['kib']:.2f}", f"{g['start_kib']:.0f}",
              f"{g['peak_kib']:.0f}", f"{con.get('p50', 0):.0f}", f"{con.get('p99', 0):.0f}", f"{con.get('max', 0):.0f}",
              e, u, s, m, g["stop"], sep="\t")
EOF

# serve_start WORKERS: `stampede serve` on a free port (its banner's first line names it).
serve_start() {
    "$STAMPEDE" serve --port 0 --workers "$1" --threads 1 >"$WORK/serve.out" 2>"$WORK/serve.err" &
    SERVER_PID=$!
    local i
    for ((i = 0; i < 100; i++)); do
        PORT=$(sed -n 's|^stampede serve: listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$WORK/serve.out")
        [[ -z $PORT ]] || return 0
        sleep 0.1
    done
    cat "$WORK/serve.err" >&2; echo "ws_hold.sh: stampede serve did not start" >&2; exit 1
}
serve_stop() { kill "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=''; }
# The server's processes: the parent and its workers.
server_pids() { echo "$SERVER_PID"; pgrep -P "$SERVER_PID" || true; }
rss_kib() { # sum of VmRSS over the given pids
    local p t=0 v
    for p in "$@"; do v=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0); t=$((t + ${v:-0})); done
    echo "$t"
}
established() { ss -Htn state established "( sport = :$PORT )" | wc -l; }
sockstat_tcp() { awk '$1 == "TCP:" {print $3, $11}' /proc/net/sockstat; } # inuse, mem (pages)
slab_kib() { awk '/^Slab:/ {print $2}' /proc/meminfo; }
listen_drops() { awk '/^TcpExt:/ { if (!h) { for (i = 1; i <= NF; i++) n[$i] = i; h = 1 } else print $n["ListenOverflows"], $n["ListenDrops"] }' /proc/net/netstat; }
slabinfo() { awk 'NR > 2 {print $1, $3 * $4}' /proc/slabinfo 2>/dev/null || true; } # cache, bytes (all objects)
load1() { cut -d' ' -f1 /proc/loadavg; }
PAGE=$(getconf PAGESIZE)

# base: the machine before the generators start (the server already listening).
base() {
    read -r B_INUSE B_MEM < <(sockstat_tcp)
    B_SLAB=$(slab_kib)
    read -r B_LOVF B_LDROP < <(listen_drops)
    slabinfo >"$WORK/slab.before"
    mapfile -t SPIDS < <(server_pids)
    B_SRSS=$(rss_kib "${SPIDS[@]}")
    LOAD_START=$(load1)
}

# sample_until_done: once a second while a generator runs, the server side's established
# connections and the kernel's figures; the sample with the most connections (the first such)
# is kept as the peak.
sample_until_done() {
    local t0=$SECONDS n best=-1 alive p
    : >"$WORK/samples.tsv"
    while :; do
        alive=0
        for p in "${GEN_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        ((alive)) || break
        n=$(established)
        read -r inuse mem < <(sockstat_tcp)
        echo "$((SECONDS - t0)) $n $inuse $mem $(slab_kib) $(rss_kib "${SPIDS[@]}")" >>"$WORK/samples.tsv"
        if ((n > best)); then
            best=$n
            read -r P_T P_EST P_INUSE P_MEM P_SLAB P_SRSS < <(tail -1 "$WORK/samples.tsv")
            slabinfo >"$WORK/slab.peak"
            P_LOAD=$(load1)
        fi
        sleep 1
    done
    for p in "${GEN_PIDS[@]}"; do wait "$p" || { echo "ws_hold.sh: a generator failed; its stderr:" >&2; cat "$WORK"/gen*.err >&2; exit 1; }; done
    GEN_PIDS=()
    read -r E_LOVF E_LDROP < <(listen_drops)
}

# gen_start PREFIX USERS HOLD [--source-ips A]: one generator in the background, bounded in time.
gen_start() {
    local p=$1 users=$2 hold=$3; shift 3
    local cmd=("$STAMPEDE" -c "$users" -n 1 --hold "$hold" -timeout $((hold + 120)) -u "ws://127.0.0.1:$PORT/echo" -data hi "$@" --output json)
    echo "${cmd[*]}" | sed "s|$STAMPEDE|stampede|" >>"$WORK/commands.txt"
    timeout -k 5 $((hold + 180)) /usr/bin/time -o "$p.time" -f '%e %U %S %M' "${cmd[@]}" >"$p.out" 2>"$p.err" &
    GEN_PIDS+=($!)
}

# The kernel's slab caches that grew most from base to peak, KiB per connection.
slab_top() {
    python3 - "$WORK/slab.before" "$WORK/slab.peak" "$1" <<'EOF'
import sys
before = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[1]))
peak = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[2]))
n = int(sys.argv[3])
grown = sorted(((peak[k] - before.get(k, 0), k) for k in peak), reverse=True)[:8]
print(", ".join(f"{k} {d / 1024 / n:.2f}" for d, k in grown if d > 0))
EOF
}
kib_per() { python3 -c "print(f'{($1) / ($2):.2f}')"; }

: >"$WORK/commands.txt"
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
cat <<EOF
### Held WebSocket connections ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, ${cpu_model:-unknown CPU}, Linux $(uname -r))

$("$STAMPEDE" --version); descriptors a process: $FD_LIMIT (hard limit); local ports: $PORT_LO-$PORT_HI ($PORTS a source address);
$((AVAIL_KIB / 1024)) MiB available memory at the start. Server: \`stampede serve --workers W --threads 1\`.
Each connection sends one 2-byte message (\`-data hi\`, echoed), then is held.

EOF

if [[ $PARTS == *a* ]]; then
    log "(a) one generator, $ONE connections held ${HOLD_A}s, server with 2 workers"
    serve_start 2
    base
    gen_start "$WORK/genA" "$ONE" "$HOLD_A"
    sample_until_done
    IFS=$'\t' read -r opened oend failed closed kinds ok bad peak open_s first kib start_kib peak_kib c50 c99 cmax wall user sys maxrss stop < <(python3 "$PY" gen "$WORK/genA")
    lost=$((failed + closed + oend + (opened - ONE)))
    cat <<EOF
#### (a) one generator process, $ONE connections, \`--hold $HOLD_A\`

| what | measured |
| --- | --- |
| held, lost | $peak open at once in the generator's report and $P_EST established at the server at the peak; opened $opened, failed $failed $kinds, closed by the server $closed, open at the end $oend; messages $ok ok, $bad failed $([[ $lost == 0 && $peak == "$ONE" && $ok == "$ONE" ]] && echo "(**none lost**)" || echo "(**LOST: check the raw outputs**)") |
| time to open all | ${open_s} s by the report's per-second series ($first in its first second); connect + upgrade p50 $c50 ms, p99 $c99 ms, max $cmax ms |
| generator resident memory | ${start_kib} KiB at start, ${peak_kib} KiB with $peak open: **$kib KiB per connection**; max RSS $maxrss KiB (/usr/bin/time) |
| generator CPU, wall | $user s user + $sys s system, $wall s wall (open, hold, close) |
| server resident memory (2 workers) | $B_SRSS KiB before, $P_SRSS KiB at the peak: $(kib_per "$P_SRSS - $B_SRSS" "$P_EST") KiB per connection |
| kernel (both ends of each connection on this machine) | sockstat TCP mem $B_MEM -> $P_MEM pages ($(kib_per "($P_MEM - $B_MEM) * $PAGE / 1024" "$P_EST") KiB per connection), Slab $B_SLAB -> $P_SLAB KiB ($(kib_per "$P_SLAB - $B_SLAB" "$P_EST") KiB per connection); grown most, KiB per connection: $(slab_top "$P_EST") |
| listen queue | ListenOverflows +$((E_LOVF - B_LOVF)), ListenDrops +$((E_LDROP - B_LDROP)) |
| load average (1 min) | $LOAD_START at the start, $P_LOAD at the peak |

EOF
    serve_stop
fi

if [[ $PARTS == *b* ]]; then
    log "(b) $TOTAL connections: $GENERATORS generators of at most $PER_PROCESS, server with $WORKERS workers"
    serve_start "$WORKERS"
    base
    left=$TOTAL
    for ((g = 0; g < GENERATORS; g++)); do
        n=$((left < PER_PROCESS ? left : PER_PROCESS)); left=$((left - n))
        gen_start "$WORK/genB$g" "$n" "$HOLD_B" --source-ips "127.0.0.$((g + 2))"
    done
    sample_until_done
    S_OPENED=0 S_OEND=0 S_FAILED=0 S_CLOSED=0 S_OK=0 S_BAD=0 S_PEAK=0 S_GROWN=0 S_CPU=0 MAX_OPEN_S=0 KINDS=''
    ROWS=''
    for ((g = 0; g < GENERATORS; g++)); do
        IFS=$'\t' read -r opened oend failed closed kinds ok bad peak open_s first kib start_kib peak_kib c50 c99 cmax wall user sys maxrss stop < <(python3 "$PY" gen "$WORK/genB$g")
        S_OPENED=$((S_OPENED + opened)) S_OEND=$((S_OEND + oend)) S_FAILED=$((S_FAILED + failed)) S_CLOSED=$((S_CLOSED + closed))
        S_OK=$((S_OK + ok)) S_BAD=$((S_BAD + bad)) S_PEAK=$((S_PEAK + peak))
        [[ $kinds == '{}' ]] || KINDS+=" $kinds"
        S_GROWN=$(python3 -c "print($S_GROWN + $peak_kib - $start_kib)")
        S_CPU=$(python3 -c "print(round($S_CPU + $user + $sys, 2))")
        MAX_OPEN_S=$(python3 -c "print(max($MAX_OPEN_S, $open_s))")
        ROWS+="| 127.0.0.$((g + 2)) | $opened | $peak | $failed | $closed | $oend | $open_s | $c50 / $c99 / $cmax | $kib | $maxrss | $user + $sys |"$'\n'
    done
    lost=$((S_FAILED + S_CLOSED + S_OEND + (TOTAL - S_OPENED)))
    verdict=$([[ $lost == 0 && $S_OK == "$TOTAL" && $P_EST == "$TOTAL" ]] && echo "**none lost, all $TOTAL held at once**" || echo "**NOT all held, or some lost: check the raw outputs (KEEP=1)**")
    cat <<EOF
#### (b) $TOTAL connections at once: $GENERATORS generator processes, $WORKERS server workers

Each generator: \`stampede -c N -n 1 --hold $HOLD_B -timeout $((HOLD_B + 120)) --source-ips 127.0.0.K -u ws://127.0.0.1:PORT/echo -data hi --output json\`, all started together.

| source address | opened | open at once | failed | closed by server | open at end | s to open all | connect+upgrade ms p50 / p99 / max | KiB per connection | max RSS KiB | CPU s user + sys |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |
$ROWS| **sum** | **$S_OPENED** | **$S_PEAK** | **$S_FAILED** | **$S_CLOSED** | **$S_OEND** | **$MAX_OPEN_S** (slowest) | | $(kib_per "$S_GROWN" "$S_PEAK") (all) | | $S_CPU |

- Held: $verdict; $P_EST established at the server in the fullest sample (${P_T} s after the start; the per-second samples: \`elapsed established tcp_inuse tcp_mem_pages slab_kib server_rss_kib\` below); messages $S_OK ok, $S_BAD failed${KINDS:+; failures by kind:$KINDS}.
- Server ($WORKERS workers): resident $B_SRSS KiB before, $P_SRSS KiB at the peak: **$(kib_per "$P_SRSS - $B_SRSS" "$P_EST") KiB per connection**.
- Generators: **$(kib_per "$S_GROWN" "$S_PEAK") KiB per connection** (resident growth from each one's start to its peak, summed, over the connections open at their peaks); $S_CPU CPU-s in all.
- Kernel (both ends of every connection are on this machine, so each connection is two sockets): sockstat TCP inuse $B_INUSE -> $P_INUSE, mem $B_MEM -> $P_MEM pages: **$(kib_per "($P_MEM - $B_MEM) * $PAGE / 1024" "$P_EST") KiB per connection** of socket buffers; Slab $B_SLAB -> $P_SLAB KiB: **$(kib_per "$P_SLAB - $B_SLAB" "$P_EST") KiB per connection** (machine-wide). Caches grown most, KiB per connection: $(slab_top "$P_EST").
- Listen queue: ListenOverflows +$((E_LOVF - B_LOVF)), ListenDrops +$((E_LDROP - B_LDROP)). Load average (1 min): $LOAD_START at the start, $P_LOAD at the peak.

<details><summary>samples</summary>

\`\`\`
$(cat "$WORK/samples.tsv")
\`\`\`
</details>

EOF
    serve_stop
fi

cat <<EOF
Commands (each generator under \`/usr/bin/time -f '%e %U %S %M'\` and \`timeout\`; PORT chosen by the server):

\`\`\`
$(sed -E "s/:[0-9]+\/echo/:PORT\/echo/" "$WORK/commands.txt" | sort -u)
\`\`\`
EOF
