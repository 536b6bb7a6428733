#!/usr/bin/env bash
# ws_hold.sh: held WebSocket connections at scale, against the built-in target (`stampede serve`):
#   (a) one stampede process holding ONE connections (default 19,000) for HOLD_A seconds, twice:
#       from one source address (the kernel's choice), then from two (--source-ips A_SOURCES);
#   (b) TOTAL connections (default 100,000) held at once on this machine, by several stampede
#       processes of at most PER_PROCESS connections each, each bound to its own loopback source
#       addresses (ADDRS_PER_PROCESS of them: 127.0.0.2-127.0.0.3, 127.0.0.4-127.0.0.5, ...),
#       to `stampede serve --workers W`.
# It reports the time to open them all, none lost (the generators' JSON reports, summed), resident
# memory per connection (generator, server) and the kernel's memory for the sockets.
#
#   bash bench/ws_hold.sh [--quick] [a|b]     # Markdown on stdout, progress on stderr
#   env: STAMPEDE (default build-release/stampede, else build/stampede), ONE (19000), HOLD_A (20 s),
#        A_SOURCES (127.0.0.2-127.0.0.3), TOTAL (100000), PER_PROCESS (17000), ADDRS_PER_PROCESS (2),
#        PER_WORKER (15000: W = ceil(TOTAL / PER_WORKER)),
#        HOLD_B (120 s: each connection's hold after its message; must outlast the opening of all:
#        52-56 s for 100,000 here, with the machine shared),
#        KEEP=1 keeps the raw outputs.
#   --quick = ONE=2000 HOLD_A=3 TOTAL=6000 PER_PROCESS=2000 PER_WORKER=2000 HOLD_B=8: checks the
#   script works, not a result.
#
# Why this shape: a process may hold at most `ulimit -Hn` descriptors (20,000 here, and it cannot
# be raised here), and one source address has only the local port range's ports (28,232 here) to
# one server address and port. So the server runs as several processes (serve --workers, sharing
# the port by SO_REUSEPORT, each with its own descriptor budget) and each generator process holds
# fewer than 20,000 connections from its own source addresses. Why two addresses a process:
# Linux's connect() picks even local ports first (odd ones are left to bind()), so once half of
# the range is in use from one source address to one destination (14,116 here), each further
# connect() searches the busy even ports before it finds an odd one: part (a) shows what that
# costs, and part (b) keeps each source address under half its range.
# Each generator sends one 2-byte message per connection (so each connection is known to work end
# to end), then holds it; every run is bounded (--hold, -timeout, and `timeout` around it) and
# stops by itself. While they run, the script samples about once a second (niced) the server
# side's established connections (ss), the server processes' resident memory and CPU
# (/proc/PID/status, stat), /proc/net/sockstat, /proc/meminfo's Slab and /proc/slabinfo;
# the kernel's figures are machine-wide, so other work on a shared machine adds noise to them
# (Slab's growth is divided by the growth of sockstat's TCP sockets in use, not by our count).
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

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
ONE=${ONE:-19000} HOLD_A=${HOLD_A:-20} A_SOURCES=${A_SOURCES:-127.0.0.2-127.0.0.3}
TOTAL=${TOTAL:-100000} PER_PROCESS=${PER_PROCESS:-17000} PER_WORKER=${PER_WORKER:-15000} HOLD_B=${HOLD_B:-120}
ADDRS_PER_PROCESS=${ADDRS_PER_PROCESS:-2}
for v in ONE HOLD_A TOTAL PER_PROCESS PER_WORKER HOLD_B ADDRS_PER_PROCESS; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "ws_hold.sh: $v must be a positive integer" >&2; exit 2; }
done
require_tools "$STAMPEDE" ss python3 /usr/bin/time timeout
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
    ((PER_PROCESS <= PORTS * ADDRS_PER_PROCESS)) || { echo "ws_hold.sh: PER_PROCESS=$PER_PROCESS is more than the local ports of $ADDRS_PER_PROCESS source address(es)" >&2; exit 2; }
    ((2 + GENERATORS * ADDRS_PER_PROCESS <= 255)) || { echo "ws_hold.sh: $GENERATORS generators x $ADDRS_PER_PROCESS: too many source addresses in 127.0.0.0/24" >&2; exit 2; }
fi
# Memory: measured on this machine, about 9 KiB a connection in the generator, 3.5 KiB in the
# server and 5 KiB in the kernel (both ends); ask for 4 times that, and never the last 2 GiB.
NEED_KIB=$(((${TOTAL} > ONE ? TOTAL : ONE) * 4 * 18 + 2 * 1024 * 1024))
AVAIL_KIB=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
((AVAIL_KIB >= NEED_KIB)) || { echo "ws_hold.sh: $((AVAIL_KIB / 1024)) MiB available, want $((NEED_KIB / 1024)) MiB" >&2; exit 2; }

GEN_PIDS=()
# The generators running, stopped before the server.
cleanup_more() {
    local p
    for p in "${GEN_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${GEN_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
}
bench_work stampede-wshold
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
                peak_open=peak["open"] if peak else 0, open_s=round(c.get("last_opened_s", full["elapsed_s"] if full else 0.0), 2),
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

# serve_start WORKERS: `stampede serve` (bench/lib.sh) with WORKERS workers of one thread each.
serve_start() { start_serve --workers "$1" --threads 1; }
serve_stop() { kill "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=''; }
# The server's processes: the parent and its workers.
server_pids() { echo "$SERVER_PID"; pgrep -P "$SERVER_PID" || true; }
rss_kib() { # sum of VmRSS over the given pids
    local p t=0 v
    for p in "$@"; do v=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0); t=$((t + ${v:-0})); done
    echo "$t"
}
# The server's side: its address and port, not the port alone, which a generator's socket from
# another source address may have as its local port (bind() picks odd ports, like the server's).
established() { nice -n 10 ss -Htn state established src "127.0.0.1:$PORT" | wc -l; }
# The generators' side: how many of their local ports are even, and odd.
port_parity() { nice -n 10 ss -Htn state established dst "127.0.0.1:$PORT" | awk '{ n = split($3, a, ":"); if (a[n] % 2) o++; else e++ } END { print e + 0, o + 0 }'; }
sockstat_tcp() { awk '$1 == "TCP:" {print $3, $11}' /proc/net/sockstat; } # inuse, mem (pages)
slab_kib() { awk '/^Slab:/ {print $2}' /proc/meminfo; }
listen_drops() { awk '/^TcpExt:/ { if (!h) { for (i = 1; i <= NF; i++) n[$i] = i; h = 1 } else print $n["ListenOverflows"], $n["ListenDrops"] }' /proc/net/netstat; }
slabinfo() { nice -n 10 awk 'NR > 2 {print $1, $3 * $4}' /proc/slabinfo 2>/dev/null || true; } # cache, bytes (all objects)
PAGE=$(getconf PAGESIZE) HZ=$(getconf CLK_TCK)
cpu_ticks() { # user + system CPU of the given pids, in clock ticks (fields 14 and 15 of /proc/PID/stat)
    local p t=0 v
    for p in "$@"; do v=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0); t=$((t + ${v:-0})); done
    echo "$t"
}
# The stampede processes of the running generators (each runs under timeout, then /usr/bin/time).
gen_pids() {
    local p t
    for p in "${GEN_PIDS[@]}"; do for t in $(pgrep -P "$p" || true); do pgrep -P "$t" || true; done; done
}

# base: the machine before the generators start (the server already listening).
base() {
    read -r B_INUSE B_MEM < <(sockstat_tcp)
    B_SLAB=$(slab_kib)
    read -r B_LOVF B_LDROP < <(listen_drops)
    slabinfo >"$WORK/slab.before"
    mapfile -t SPIDS < <(server_pids)
    B_SRSS=$(rss_kib "${SPIDS[@]}")
    B_SCPU=$(cpu_ticks "${SPIDS[@]}")
    LOAD_START=$(load1)
}

# sample_until_done: once a second while a generator runs, the server side's established
# connections and the kernel's figures; the sample with the most connections (the first such)
# is kept as the peak.
sample_until_done() {
    local t0=$SECONDS n best=-1 alive p
    : >"$WORK/samples.tsv"
    P_EVEN='' P_ODD=''
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
            P_SCPU=$(cpu_ticks "${SPIDS[@]}")
            P_GCPU=$(cpu_ticks $(gen_pids))
            if ((${PARITY:-0})); then read -r P_EVEN P_ODD < <(port_parity); fi
        fi
        sleep 1
    done
    for p in "${GEN_PIDS[@]}"; do wait "$p" || { echo "ws_hold.sh: a generator failed; its stderr:" >&2; cat "$WORK"/gen*.err >&2; exit 1; }; done
    GEN_PIDS=()
    read -r E_LOVF E_LDROP < <(listen_drops)
    E_SCPU=$(cpu_ticks "${SPIDS[@]}")
    # CPU-s from the start to the fullest sample (the opening, and a second or two more), and
    # per connection then held: generators + server, in ms
    OPEN_G=$(python3 -c "print(f'{$P_GCPU / $HZ:.2f}')") OPEN_S=$(python3 -c "print(f'{($P_SCPU - $B_SCPU) / $HZ:.2f}')")
    OPEN_MS=$(python3 -c "print(f'{($P_GCPU + $P_SCPU - $B_SCPU) / $HZ * 1000 / max($P_EST, 1):.3f}')")
}

# gen_start PREFIX USERS HOLD [--source-ips A]: one generator in the background, bounded in time.
gen_start() {
    local p=$1 users=$2 hold=$3; shift 3
    local cmd=("$STAMPEDE" -c "$users" -n 1 --hold "$hold" -timeout $((hold + 120)) -u "ws://127.0.0.1:$PORT/echo" -data hi "$@" --output json)
    echo "${cmd[*]}" | sed "s|$STAMPEDE|stampede|" >>"$WORK/commands.txt"
    timeout -k 5 $((hold + 180)) /usr/bin/time -o "$p.time" -f '%e %U %S %M' "${cmd[@]}" >"$p.out" 2>"$p.err" &
    GEN_PIDS+=($!)
}

# The kernel's slab caches that grew most from base to peak, KiB per TCP socket (DIVISOR: the
# growth of sockstat's TCP inuse, machine-wide: other users' sockets come and go too).
slab_top() {
    python3 - "$WORK/slab.before" "$WORK/slab.peak" "$1" <<'EOF'
import sys
before = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[1]))
peak = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[2]))
n = int(sys.argv[3])
grown = sorted(((peak[k] - before.get(k, 0), k) for k in peak), reverse=True)[:8]
print(", ".join(f"{k} {d / 1024 / n:.2f}" for d, k in grown if d > 0) if n > 0 else "—")
EOF
}
kib_per() { python3 -c "print(f'{($1) / ($2):.2f}')"; }

: >"$WORK/commands.txt"
cat <<EOF
### Held WebSocket connections ($(date -u '+%Y-%m-%d %H:%M UTC'), $(machine))

$("$STAMPEDE" --version); descriptors a process: $FD_LIMIT (hard limit); local ports: $PORT_LO-$PORT_HI ($PORTS a source address);
$((AVAIL_KIB / 1024)) MiB available memory at the start. Server: \`stampede serve --workers W --threads 1\`.
Each connection sends one 2-byte message (\`-data hi\`, echoed), then is held.

EOF

# hold_one NAME [--source-ips ...]: one generator holding ONE connections to a server of 2 workers
# (each under 10,000 descriptors); its figures, one a
# line ("what<TAB>value"), into $WORK/col.NAME, in the order of the table of part (a).
hold_one() {
    local name=$1; shift
    serve_start 2 # a new server each time: its resident memory would not shrink back
    base
    gen_start "$WORK/genA.$name" "$ONE" "$HOLD_A" "$@"
    PARITY=1 sample_until_done
    local opened oend failed closed kinds ok bad peak open_s first kib start_kib peak_kib c50 c99 cmax wall user sys maxrss stop lost
    IFS=$'\t' read -r opened oend failed closed kinds ok bad peak open_s first kib start_kib peak_kib c50 c99 cmax wall user sys maxrss stop < <(python3 "$PY" gen "$WORK/genA.$name")
    lost=$((failed + closed + oend + (opened - ONE)))
    {
        printf 'source addresses\t%s\n' "${*:-one (the kernel picks 127.0.0.1)}"
        printf 'held at once (report / server)\t%s / %s\n' "$peak" "$P_EST"
        printf 'opened, failed, closed by the server, open at the end\t%s, %s, %s, %s\n' "$opened" "$failed$([[ $kinds == '{}' ]] || echo " $kinds")" "$closed" "$oend"
        printf 'messages ok, failed\t%s, %s\n' "$ok" "$bad"
        printf 'none lost\t%s\n' "$([[ $lost == 0 && $peak == "$ONE" && $ok == "$ONE" ]] && echo "**yes**" || echo "**NO: check the raw outputs**")"
        printf 'time to open all (the last opened: connections.last_opened_s)\t**%s s**\n' "$open_s"
        printf 'opened in the first second\t%s\n' "$first"
        printf 'connect + upgrade p50 / p99 / max\t%s / %s / %s ms\n' "$c50" "$c99" "$cmax"
        printf 'local ports even / odd at the peak\t%s / %s\n' "$P_EVEN" "$P_ODD"
        printf 'generator resident, start -> peak\t%s -> %s KiB\n' "$start_kib" "$peak_kib"
        printf 'generator KiB per open connection\t**%s**\n' "$kib"
        printf 'generator max RSS (/usr/bin/time)\t%s KiB\n' "$maxrss"
        printf 'generator CPU user + system, wall\t%s + %s s, %s s\n' "$user" "$sys" "$wall"
        printf 'CPU-s from the start to the fullest sample: generator, server\t%s, %s (%s ms a connection)\n' "$OPEN_G" "$OPEN_S" "$OPEN_MS"
        printf 'server CPU-s, whole run\t%s\n' "$(python3 -c "print(f'{($E_SCPU - $B_SCPU) / $HZ:.2f}')")"
        printf 'server (2 workers) resident, before -> peak\t%s -> %s KiB: %s KiB per connection\n' "$B_SRSS" "$P_SRSS" "$(kib_per "$P_SRSS - $B_SRSS" "$P_EST")"
        printf 'kernel: sockstat TCP sockets in use, buffer pages\t%s -> %s, %s -> %s\n' "$B_INUSE" "$P_INUSE" "$B_MEM" "$P_MEM"
        printf 'kernel: Slab, KiB per TCP socket (Slab growth / sockets growth)\t%s -> %s KiB: **%s**\n' "$B_SLAB" "$P_SLAB" "$(kib_per "$P_SLAB - $B_SLAB" "$P_INUSE - $B_INUSE")"
        printf 'kernel: caches grown most, KiB per TCP socket\t%s\n' "$(slab_top "$((P_INUSE - B_INUSE))")"
        printf 'ListenOverflows, ListenDrops\t+%s, +%s\n' "$((E_LOVF - B_LOVF))" "$((E_LDROP - B_LDROP))"
        printf 'load average (1 min), start / peak\t%s / %s\n' "$LOAD_START" "$P_LOAD"
    } >"$WORK/col.$name"
    serve_stop
}

if [[ $PARTS == *a* ]]; then
    log "(a) one generator, $ONE connections held ${HOLD_A}s, server with 2 workers: from one source address, then from $A_SOURCES"
    hold_one one
    sleep 2 # let the kernel free the last sockets before the next base
    hold_one two --source-ips "$A_SOURCES"
    echo "#### (a) one generator process, $ONE connections, \`--hold $HOLD_A\`"
    echo
    python3 - "$WORK/col.one" "$WORK/col.two" <<'EOF'
import sys
cols = [[l.rstrip("\n").split("\t", 1) for l in open(p)] for p in sys.argv[1:]]
print("| what | " + " | ".join(c[0][1] for c in cols) + " |")
print("| --- |" + " --- |" * len(cols))
for i in range(1, len(cols[0])):
    print(f"| {cols[0][i][0]} | " + " | ".join(c[i][1] for c in cols) + " |")
EOF
    echo
fi

if [[ $PARTS == *b* ]]; then
    log "(b) $TOTAL connections: $GENERATORS generators of at most $PER_PROCESS, server with $WORKERS workers"
    serve_start "$WORKERS"
    base
    left=$TOTAL ADDRS=()
    for ((g = 0; g < GENERATORS; g++)); do
        n=$((left < PER_PROCESS ? left : PER_PROCESS)); left=$((left - n))
        lo=$((2 + g * ADDRS_PER_PROCESS)) hi=$((1 + (g + 1) * ADDRS_PER_PROCESS))
        ADDRS[g]=127.0.0.$lo$( ((hi > lo)) && echo "-127.0.0.$hi")
        gen_start "$WORK/genB$g" "$n" "$HOLD_B" --source-ips "${ADDRS[g]}"
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
        ROWS+="| ${ADDRS[g]} | $opened | $peak | $failed | $closed | $oend | $open_s | $c50 / $c99 / $cmax | $kib | $maxrss | $user + $sys |"$'\n'
    done
    lost=$((S_FAILED + S_CLOSED + S_OEND + (TOTAL - S_OPENED)))
    verdict=$([[ $lost == 0 && $S_OK == "$TOTAL" && $P_EST == "$TOTAL" ]] && echo "**none lost, all $TOTAL held at once**" || echo "**NOT all held, or some lost: check the raw outputs (KEEP=1)**")
    cat <<EOF
#### (b) $TOTAL connections at once: $GENERATORS generator processes, $WORKERS server workers

Each generator: \`stampede -c N -n 1 --hold $HOLD_B -timeout $((HOLD_B + 120)) --source-ips ADDRESSES -u ws://127.0.0.1:PORT/echo -data hi --output json\`, all started together.

| source addresses | opened | open at once | failed | closed by server | open at end | s to open all | connect+upgrade ms p50 / p99 / max | KiB per connection | max RSS KiB | CPU s user + sys |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |
$ROWS| **sum** | **$S_OPENED** | **$S_PEAK** | **$S_FAILED** | **$S_CLOSED** | **$S_OEND** | **$MAX_OPEN_S** (slowest) | | $(kib_per "$S_GROWN" "$S_PEAK") (all) | | $S_CPU |

- Held: $verdict; $P_EST established at the server in the fullest sample (${P_T} s after the start; the per-second samples: \`elapsed established tcp_inuse tcp_mem_pages slab_kib server_rss_kib\` below); messages $S_OK ok, $S_BAD failed${KINDS:+; failures by kind:$KINDS}.
- CPU from the start to the fullest sample: generators $OPEN_G s, server $OPEN_S s, so **$OPEN_MS ms of CPU a connection** (opened, one message, held); whole run: generators $S_CPU s, server $(python3 -c "print(f'{($E_SCPU - $B_SCPU) / $HZ:.2f}')") s.
- Server ($WORKERS workers): resident $B_SRSS KiB before, $P_SRSS KiB at the peak: **$(kib_per "$P_SRSS - $B_SRSS" "$P_EST") KiB per connection**.
- Generators: **$(kib_per "$S_GROWN" "$S_PEAK") KiB per connection** (resident growth from each one's start to its peak, summed, over the connections open at their peaks); $S_CPU CPU-s in all.
- Kernel (both ends of every connection are on this machine: two TCP sockets a connection): sockstat TCP inuse $B_INUSE -> $P_INUSE, buffer memory (mem) $B_MEM -> $P_MEM pages of $PAGE bytes; Slab $B_SLAB -> $P_SLAB KiB: **$(kib_per "$P_SLAB - $B_SLAB" "$P_INUSE - $B_INUSE") KiB per TCP socket** (Slab's growth over the sockets' growth, both machine-wide). Caches grown most, KiB per TCP socket: $(slab_top "$((P_INUSE - B_INUSE))").
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
