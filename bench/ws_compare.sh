#!/usr/bin/env bash
# ws_compare.sh: WebSocket round trips per generator CPU-second, stampede vs tsung (Debian's tsung,
# its ts_websocket plugin), on the echo endpoint of the built-in target (`stampede serve`).
#
#   bash bench/ws_compare.sh [--quick]     # Markdown on stdout, progress on stderr
#   env: STAMPEDE (binary, default build-release/stampede, else build/stampede; use a Release build),
#        DURATION (s per run, default 10), REPEATS (default 3), CONNS (default 50),
#        SIZE (message bytes, default 64), KEEP=1 keeps the raw outputs (path printed at the end).
#   --quick = 2 s runs, 1 repeat: a smoke test of the script, not a result.
#
# Why this shape: the generator and the server share two cores, so messages per second mostly
# measure the server. What tells generators apart is the CPU each spends per message, so every run
# is wrapped in /usr/bin/time and we report messages per generator CPU-second. Same target (one
# `stampede serve --threads 1`, started once), same 64-byte text message, same number of
# connections, each sending its next message when the reply to the last one came (closed loop: a
# tsung <websocket type="message"> waits for one frame back, its default ack "parse"), for the
# same fixed time. Every run is capped in time and stops by itself. The tools alternate in each
# repeat, the order rotating, so a busy machine hurts all of them alike.
# Three rows: stampede with one thread (-cpuNumber 1, as in compare.sh), tsung as it starts
# (the Erlang VM with one scheduler per core, "tsung"), and tsung held to one scheduler
# ("tsung +S1", ERL_FLAGS='+S 1'): one generator thread each, as the other benchmarks here.
# tsung's fixed cost (starting the Erlang VM, its controller and os_mon, stopping) is measured by
# one run of a single connection and message ("tsung idle"); the "net" column subtracts it.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

if [[ -z ${STAMPEDE:-} ]]; then
    STAMPEDE=$ROOT/build-release/stampede
    [[ -x $STAMPEDE ]] || STAMPEDE=$ROOT/build/stampede
fi
DURATION=${DURATION:-10}
REPEATS=${REPEATS:-3}
CONNS=${CONNS:-50}
SIZE=${SIZE:-64}
if [[ ${1:-} == --quick ]]; then DURATION=2 REPEATS=1; fi
for v in DURATION REPEATS CONNS SIZE; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "ws_compare.sh: $v must be a positive integer" >&2; exit 2; }
done
INSTALL_HINT='apt-get install --no-install-recommends tsung time' require_tools "$STAMPEDE" tsung erl epmd python3 /usr/bin/time timeout
LIMIT=$((DURATION * 3 + 40)) # hard cap per run (tsung takes a few seconds to start and stop)
TIME_FORMAT='%e %U %S %M'    # the wall time too

EPMD_PORT=''
# tsung's Erlang VM may outlive a killed `timeout`: kill what is left of it (found by our private
# epmd port in its environment, so no one else's VM), then our private epmd.
cleanup_more() {
    [[ -n $EPMD_PORT ]] || return 0
    local p
    for p in $(pgrep -f "tsung_controller_wsbench$$" || true); do kill -9 "$p" 2>/dev/null || true; done
    ERL_EPMD_PORT=$EPMD_PORT epmd -kill >/dev/null 2>&1 || true
}
bench_work stampede-wsbench
RESULTS=$WORK/results.tsv # tool, messages, cpu_s, wall_s, msgs_per_s, mean_ms, p50, p99, rss_kb, failed, load1
COMMANDS=$WORK/commands.txt
PY=$WORK/ws_bench.py
: >"$RESULTS"; : >"$COMMANDS"
MESSAGE=$(python3 -c "import sys; print(('{\"op\":\"echo\",\"pad\":\"' + 'x' * 64)[:$SIZE - 2] + '\"}')")
((${#MESSAGE} == SIZE)) || { echo "ws_compare.sh: SIZE must be at least 16" >&2; exit 2; }

# Parsing and statistics in Python: tsung and stampede report differently.
cat >"$PY" <<'EOF'
import glob, json, re, statistics as st, sys
def time_file(p):  # /usr/bin/time -f '%e %U %S %M'; its last line
    e, u, s, m = open(p).read().split("\n")[-2].split()
    return float(e), float(u) + float(s), int(m)
def tsung_stats(logdir):
    """tsung.log: one block a dump; 'stats: request COUNT MEAN STDDEV MAX MIN ...' per interval."""
    text = open(glob.glob(logdir + "/*/tsung.log")[0]).read()
    reqs = [l.split()[2:7] for l in text.splitlines() if l.startswith("stats: request ")]
    count = sum(int(r[0]) for r in reqs)
    mean = sum(int(r[0]) * float(r[1]) for r in reqs) / count if count else 0.0
    get = lambda name: sum(int(l.split()[2]) for l in text.splitlines() if l.startswith(f"stats: {name} "))
    # error_abort: tsung's own stop at <load duration> ("Aborting by request"), once a run; not a failure
    errors = sum(int(l.split()[2]) for l in text.splitlines()
                 if l.startswith("stats: error_") and not l.startswith("stats: error_abort "))
    # the upgrade and the close are requests of their own for tsung (one each per connection,
    # the close only for a user that finished its loop): not messages
    return count - get("websocket_succ") - get("finish_users_count"), mean, errors, get("websocket_succ")
def record(tool, prefix, duration, load1):
    wall, cpu, rss = time_file(prefix + ".time")
    if tool == "stampede":
        j = json.load(open(prefix + ".out"))
        msgs, rate = j["requests"]["succeeded"], j["rps"]
        lat = j["latency_ms"]
        mean, p50, p99, failed = lat["mean"], lat["p50"], lat["p99"], j["requests"]["failed"]
    else:  # tsung: messages over the load's duration (its <load duration>, after which it stops every user)
        msgs, mean, errs, conns = tsung_stats(prefix + ".logs")
        rate, p50, p99, failed = msgs / float(duration), "", "", errs
    print(tool, msgs, cpu, wall, rate, mean, p50, p99, rss, failed, load1, sep="\t")
def fmt(x, f):
    return "" if x == "" else format(float(x), f)
def report(path, idle_cpu):
    rows = {}
    for line in open(path):
        tool, msgs, cpu, wall, rate, mean, p50, p99, rss, failed, load1 = line.rstrip("\n").split("\t")
        rows.setdefault(tool, []).append((float(rate), float(cpu), int(msgs) / max(float(cpu), 0.01),
            int(msgs) / max(float(cpu) - (idle_cpu if tool.startswith("tsung") else 0), 0.01),
            float(mean), p50, p99, int(rss), int(failed), float(load1), int(msgs)))
    ref = rows.get("tsung")
    print("| tool | messages/s | CPU s | messages per CPU-s | ratio vs tsung | net of tsung's start-up: per CPU-s | mean ms | p50 ms | p99 ms | max RSS KiB | failed | load avg (1 min) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for tool, runs in rows.items():
        med = lambda i: st.median(r[i] for r in runs)
        opt = lambda i, f: fmt(st.median(float(r[i]) for r in runs), f) if runs[0][i] != "" else "—"
        ratio = f"{med(2) / st.median(r[2] for r in ref):.2f}" if ref else "—"
        loads = " ".join(f"{r[9]:.2f}" for r in runs)
        print(f"| {tool} | {med(0):,.0f} | {med(1):.2f} | {med(2):,.0f} | {ratio} | {med(3):,.0f} | {med(4):.3f} | "
              f"{opt(5, '.3f')} | {opt(6, '.3f')} | {med(7):,.0f} | {sum(r[8] for r in runs)} | {loads} |")
if __name__ == "__main__":
    a = sys.argv[2:]
    {"record": lambda: record(*a), "report": lambda: report(a[0], float(a[1])),
     "cpu": lambda: print(f"{time_file(a[0] + '.time')[1]:.2f}"),
     "tsung_msgs": lambda: print(tsung_stats(a[0] + ".logs")[0])}[sys.argv[1]]()
EOF

# tsung's scenario: CONNS users arrive at once (1000/s, capped at CONNS), each opens /echo, then
# sends the message and awaits its reply in a loop until <load duration> stops every user. The
# arrival phase lasts as long as the load: with a 1 s phase, only 7 to 14 of 50 users arrived.
tsung_xml() { # FILE USERS SECONDS MESSAGES_PER_USER
    cat >"$1" <<EOF
<?xml version="1.0"?>
<!DOCTYPE tsung SYSTEM "/usr/share/tsung/tsung-1.0.dtd" []>
<tsung loglevel="warning" version="1.0" dumptraffic="false">
  <clients><client host="localhost" use_controller_vm="true" maxusers="$(($2 + 10))"/></clients>
  <servers><server host="127.0.0.1" port="$PORT" type="tcp"/></servers>
  <load duration="$3" unit="second">
    <arrivalphase phase="1" duration="$3" unit="second">
      <users maxnumber="$2" arrivalrate="1000" unit="second"/>
    </arrivalphase>
  </load>
  <sessions>
    <session name="echo" probability="100" type="ts_websocket">
      <request><websocket type="connect" path="/echo"></websocket></request>
      <for from="1" to="$4" incr="1" var="i">
        <request><websocket type="message" frame="text">$MESSAGE</websocket></request>
      </for>
      <request><websocket type="close"></websocket></request>
    </session>
  </sessions>
</tsung>
EOF
}

# note_cmd CMD...: as bench/lib.sh's, with the binary as `stampede` and one line per distinct
# command, whatever the run's number.
note_cmd() {
    local line
    line=$(quote_cmd "$@")
    line=${line//$STAMPEDE/stampede}
    note_line "$(sed -E 's/run[0-9]+/runN/g' <<<"$line")"
}
RUN=0

run_stampede() {
    local p=$WORK/run$((++RUN)) l; l=$(load1)
    timed "$p" "$STAMPEDE" -c "$CONNS" -n 0 -timeout "$DURATION" -cpuNumber 1 \
        -u "ws://127.0.0.1:$PORT/echo" -data "$MESSAGE" --output json
    python3 "$PY" record stampede "$p" "$DURATION" "$l" >>"$RESULTS"
}
# run_tsung_as NAME PREFIX USERS SECONDS MESSAGES [ERL_FLAGS]: tsung without its web GUI (-n), its
# Erlang node named on 127.0.0.1 (-I) and its epmd on a private loopback port, logs in $WORK.
tsung_once() {
    local name=$1 p=$2; shift 2
    tsung_xml "$p.xml" "$@"
    mkdir -p "$p.logs"
    timed "$p" env ERL_FLAGS="${TSUNG_ERL_FLAGS:-}" tsung -n -I 127.0.0.1 -i "wsbench$$" -l "$p.logs" -f "$p.xml" start
}
run_tsung() {
    local p=$WORK/run$((++RUN)) l; l=$(load1)
    tsung_once tsung "$p" "$CONNS" "$DURATION" 100000000
    python3 "$PY" record tsung "$p" "$DURATION" "$l" >>"$RESULTS"
}
run_tsung_s1() {
    local p=$WORK/run$((++RUN)) l; l=$(load1)
    TSUNG_ERL_FLAGS='+S 1' tsung_once "tsung +S1" "$p" "$CONNS" "$DURATION" 100000000
    python3 "$PY" record "tsung +S1" "$p" "$DURATION" "$l" >>"$RESULTS"
}

EPMD_PORT=$(free_ports 1)
export ERL_EPMD_PORT=$EPMD_PORT ERL_EPMD_ADDRESS=127.0.0.1
export HOME=$WORK # tsung creates ~/.tsung
start_serve --threads 1 # the target: one thread, on a port it picks
URL=ws://127.0.0.1:$PORT/echo
log "stampede serve on $URL (1 thread); DURATION=${DURATION}s REPEATS=$REPEATS CONNS=$CONNS SIZE=$SIZE; stampede: $STAMPEDE"

# tsung's fixed cost: 1 user, 1 message, a 1 s load.
IDLE=$WORK/idle
log "tsung idle (its start-up and stop)"
tsung_once "tsung idle" "$IDLE" 1 1 1
IDLE_CPU=$(python3 "$PY" cpu "$IDLE")
IDLE_MSGS=$(python3 "$PY" tsung_msgs "$IDLE")
((IDLE_MSGS == 1)) || { echo "ws_compare.sh: tsung's idle run sent $IDLE_MSGS messages, not 1 (tsung's log: $IDLE.logs)" >&2; KEEP=1; exit 1; }

TOOLS=(stampede tsung tsung_s1)
for ((rep = 0; rep < REPEATS; rep++)); do
    for ((i = 0; i < ${#TOOLS[@]}; i++)); do
        t=${TOOLS[(i + rep) % ${#TOOLS[@]}]}
        log "repeat $((rep + 1))/$REPEATS: $t"
        "run_$t"
    done
done

cat <<EOF
### WebSocket round trips ($(date -u '+%Y-%m-%d %H:%M UTC'), $(machine))

Target: \`stampede serve --threads 1\` (\`$URL\`); $CONNS connections, a $SIZE-byte text message,
each connection sending its next message when the reply to the last came; ${DURATION} s a run, median
of $REPEATS run(s), the tools alternating. $("$STAMPEDE" --version), one thread (\`-cpuNumber 1\`);
$(tsung -v), Erlang/OTP $(erl -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]), halt().'),
as it starts (one scheduler per core) and with one scheduler (\`ERL_FLAGS='+S 1'\`).
tsung's start-up and stop alone (1 connection, 1 message, a 1 s load) took $IDLE_CPU CPU-s; the
"net" column subtracts it from tsung's CPU time. tsung's messages/s is its count over the load's
${DURATION} s; it reports a mean latency, no percentiles. Load average (1 min) at the start of each run.

EOF
python3 "$PY" report "$RESULTS" "$IDLE_CPU"
cat <<EOF

Commands (each under \`/usr/bin/time -f '%e %U %S %M'\`; tsung's scenario is written by the script):

\`\`\`
stampede serve --port 0 --threads 1
$(cat "$COMMANDS")
\`\`\`
EOF
