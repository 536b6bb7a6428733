#!/usr/bin/env bash
# profile.sh: the per-request profile of stampede beside wrk (issue 15), on one local nginx: CPU
# (user and system µs), syscalls, TCP segments and user-space instructions per request, for each
# HTTP/1.1 scenario of compare.sh, so that the next regression shows in docs/benchmarks.md.
#
#   bash bench/profile.sh                  # a few minutes; Markdown on stdout, progress on stderr
#   env: STAMPEDE (binary, default build/stampede; use a Release build), DURATION (s of the timed
#        run, default 3), ONLY=REGEX runs only the scenarios whose names match, CALLGRIND=0 skips
#        the valgrind runs (the slowest part), KEEP=1 keeps the raw outputs (path printed at the end).
#
# Why this shape: each figure comes from its own bounded run, since the tools that count disturb
# what the others measure. CPU and TCP segments from a plain run of DURATION s under
# /usr/bin/time (as compare.sh's); syscalls from a shorter run under `strace -f -c` (ptrace
# slows every syscall, so its CPU is worthless); instructions from an even shorter run under
# callgrind (50x slower, user space only). stampede's short runs are a fixed number of requests
# (-n), wrk's are 2 s; syscalls are divided by that run's own request count, and so include start-up
# and exit spread over the run. Instructions come from two callgrind runs, a short and a long one,
# as the difference of their counts over the difference of their requests: what one more request
# costs, without start-up (stampede's is 16 M instructions, a third of 5,000 requests' own).
# One generator thread each (wrk -t1, stampede -cpuNumber 1).
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

STAMPEDE=${STAMPEDE:-$ROOT/build/stampede}
DURATION=${DURATION:-3}
CALLGRIND=${CALLGRIND:-1}
[[ $DURATION =~ ^[1-9][0-9]*$ ]] || { echo "profile.sh: DURATION: a positive integer" >&2; exit 2; }
[[ $CALLGRIND == [01] ]] || { echo "profile.sh: CALLGRIND: 0 or 1" >&2; exit 2; }
require_tools "$STAMPEDE" nginx wrk strace openssl python3 /usr/bin/time timeout
((CALLGRIND == 0)) || require_tools valgrind
LIMIT=$((DURATION * 4 + 30)) # hard cap per run: a hung generator must not hang the benchmark
CG_LIMIT=600                 # the same for a callgrind run, which runs by count and slowly
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

bench_work stampede-profile
ROWS=$WORK/rows.md
COMMANDS=$WORK/commands.txt
PY=$WORK/profile.py
: >"$ROWS"; : >"$COMMANDS"

# Parsing lives in Python, as in compare.sh. A run's files: PREFIX.out/.err/.time (timed), the
# strace run's PREFIX.st.*, with its summary in PREFIX.st.strace, the callgrind run's PREFIX.cg.*.
cat >"$PY" <<'EOF'
import json, os, re, sys
def grab(pat, text):
    m = re.search(pat, text, re.M)
    return int(m.group(1)) if m else 0
def reqs(tool, prefix):  # each tool's own count of completed requests
    if tool == "stampede": return json.load(open(prefix + ".out"))["requests"]["total"]
    return grab(r"(\d+) requests in", open(prefix + ".out").read())
def errors(tool, prefix):
    if tool == "stampede": return json.load(open(prefix + ".out"))["requests"]["failed"]
    out = open(prefix + ".out").read()
    return sum(map(int, re.findall(r"(?:connect|read|write|timeout) (\d+)", out))) + grab(r"Non-2xx or 3xx responses: (\d+)", out)
def row(scenario, tool, p, segs0, segs1):
    n = max(reqs(tool, p), 1)
    user, sys_ = map(float, open(p + ".time").read().split("\n")[-2].split()[:2])  # %U %S, last line
    calls = {}
    for line in open(p + ".st.strace"):  # strace -U name,calls: "NAME COUNT" lines, then "total COUNT"
        f = line.split()
        if len(f) == 2 and f[1].isdigit(): calls[f[0]] = int(f[1])
    total, sn = calls.pop("total", 0), max(reqs(tool, p + ".st"), 1)
    top = ", ".join(f"{k} {v / sn:.2f}" for k, v in sorted(calls.items(), key=lambda kv: -kv[1])[:3])
    ir = "—"
    if os.path.exists(p + ".cg.callgrind"):  # "totals:" = Ir over every thread of the process
        count = lambda q: grab(r"^totals:\s*(\d+)", open(q + ".callgrind").read())
        extra = reqs(tool, p + ".cg") - reqs(tool, p + ".cg0")
        ir = f"{(count(p + '.cg') - count(p + '.cg0')) / max(extra, 1):,.0f}"
    print(f"| {scenario} | {tool} | {n:,} | {user * 1e6 / n:.2f} | {sys_ * 1e6 / n:.2f} | {total / sn:.2f} | {top}"
          f" | {(int(segs1) - int(segs0)) / n:.2f} | {ir} |")
    for q in (p, p + ".st", p + ".cg0", p + ".cg"):
        if os.path.exists(q + ".out") and (e := errors(tool, q)):
            print(f"profile.sh: warning: {tool} in '{scenario}': {e} failed requests ({q}.out)", file=sys.stderr)
if __name__ == "__main__":  # row SCENARIO TOOL PREFIX SEGS_BEFORE SEGS_AFTER
    row(*sys.argv[2:])
EOF

# out_segs: TCP segments sent, OutSegs of the second "Tcp:" line of /proc/net/snmp (the first
# names the fields). The counter is the whole network namespace's: with nginx on this host it
# counts both ends, nginx's answers and ACKs as well as the generator's requests, and anything
# else on the machine using TCP at the time.
out_segs() {
    awk '/^Tcp:/ { if (seen++) { for (i = 1; i <= NF; i++) if (name[i] == "OutSegs") print $i }
                   else for (i = 1; i <= NF; i++) name[i] = $i }' /proc/net/snmp
}

# nginx (bench/lib.sh) with HTTP/1.1 in clear and over TLS, as compare.sh's (no HTTP/2 here).
start_profile_nginx() {
    read -r HTTP_PORT TLS_PORT < <(free_ports 2)
    make_files
    start_nginx "" "" "$HTTP_PORT" "$TLS_PORT" <<EOF
    server {
        listen 127.0.0.1:$HTTP_PORT;
        listen 127.0.0.1:$TLS_PORT ssl;
        ssl_certificate $WORK/cert.pem;
        ssl_certificate_key $WORK/key.pem;
    }
EOF
}

# cmd_TOOL MODE CONNS URL [REQUESTS [SECONDS]]: the load command into CMD; without REQUESTS it runs
# for DURATION s, with it it is short (stampede: REQUESTS in all, as -n REQUESTS/CONNS; wrk:
# SECONDS, 2 by default).
# MODE is ka (keep-alive), close (a new connection per request), tls or tlsclose (the same over TLS).
CMD=()
cmd_wrk() {
    local hdr=() seconds=$DURATION
    [[ $1 != close && $1 != tlsclose ]] || hdr=(-H 'Connection: close')
    [[ -z ${4:-} ]] || seconds=${5:-2}
    CMD=(wrk -t1 -c "$2" -d "${seconds}s" "${hdr[@]}" "$3")
}
cmd_stampede() {
    local flags=() n=(-n 0 -timeout "$DURATION") # -timeout bounds the run, as in compare.sh
    case $1 in ka) flags=(-k) ;; tls) flags=(-k --insecure) ;; tlsclose) flags=(--insecure) ;; esac
    [[ -z ${4:-} ]] || n=(-n $(($4 / $2)))
    CMD=("$STAMPEDE" -c "$2" "${n[@]}" "${flags[@]}" -cpuNumber 1 --output json -u "$3")
}

RUN=0
# profile SCENARIO MODE CONNS URL STRACE_N CALLGRIND_N TOOL: the three runs of one tool, one row.
# STRACE_N and CALLGRIND_N are stampede's request counts there (about 2 s and a few thousand; the
# short callgrind run makes a fifth of CALLGRIND_N, wrk's runs 1 s and 3 s).
profile() {
    local name=$1 mode=$2 conns=$3 url=$4 st_n=$5 cg_n=$6 tool=$7 p=$WORK/run$((++RUN)) segs0 segs1
    log "$name: $tool: timed run (${DURATION}s)"
    "cmd_$tool" "$mode" "$conns" "$url"
    segs0=$(out_segs)
    timed "$p" "${CMD[@]}"
    segs1=$(out_segs)
    log "$name: $tool: strace run"
    "cmd_$tool" "$mode" "$conns" "$url" "$st_n"
    timed "$p.st" strace -f -c -U name,calls -o "$p.st.strace" "${CMD[@]}"
    if ((CALLGRIND)); then
        log "$name: $tool: callgrind runs"
        "cmd_$tool" "$mode" "$conns" "$url" $((cg_n / 5)) 1
        LIMIT=$CG_LIMIT timed "$p.cg0" valgrind --tool=callgrind --callgrind-out-file="$p.cg0.callgrind" "${CMD[@]}"
        "cmd_$tool" "$mode" "$conns" "$url" "$cg_n" 3
        LIMIT=$CG_LIMIT timed "$p.cg" valgrind --tool=callgrind --callgrind-out-file="$p.cg.callgrind" "${CMD[@]}"
    fi
    python3 "$PY" row "$name" "$tool" "$p" "$segs0" "$segs1" >>"$ROWS"
}
scenario() {
    [[ -z ${ONLY:-} || $1 =~ $ONLY ]] || return 0
    profile "$@" wrk
    profile "$@" stampede
}

start_profile_nginx
PLAIN=http://127.0.0.1:$HTTP_PORT/
TLS=https://127.0.0.1:$TLS_PORT/
log "nginx on $PLAIN and $TLS; DURATION=${DURATION}s CALLGRIND=$CALLGRIND; stampede: $STAMPEDE"

# A new connection costs ten or so syscalls and, over TLS, a handshake (under callgrind about
# 0.1 s of the client's time): fewer requests there keep those runs within seconds.
scenario "keep-alive -c 1" ka 1 "$PLAIN" 20000 5000
scenario "keep-alive -c 10" ka 10 "$PLAIN" 20000 5000
scenario "keep-alive -c 100" ka 100 "$PLAIN" 20000 5000
scenario "new connection per request -c 10" close 10 "$PLAIN" 5000 5000
scenario "HTTPS keep-alive -c 10" tls 10 "$TLS" 20000 5000
scenario "HTTPS new connection per request -c 10" tlsclose 10 "$TLS" 1000 500

cat <<EOF
### Per-request profile ($(date -u +%Y-%m-%d), $(machine))

nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), 1 worker, 612-byte page; $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2); $("$STAMPEDE" --version).
One generator thread each. Requests, user and system µs (\`/usr/bin/time\`) and TCP segments (OutSegs
of /proc/net/snmp: both ends, nginx's too) from a ${DURATION} s run; syscalls from a short run under
\`strace -f -c\`; user-space instructions (Ir) from a short run under callgrind$( ((CALLGRIND)) || echo ' (not run here: CALLGRIND=0)').
Syscalls: each short run divided by its own request count (stampede a fixed -n, wrk 2 s), start-up
and exit included. Instructions: a short and a long callgrind run's difference over their requests'.

| scenario | tool | requests | user µs/req | sys µs/req | syscalls/req | top syscalls | TCP segs/req | instructions/req |
| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |
$(cat "$ROWS")

Commands (the timed ones under \`/usr/bin/time -f '%U %S %M'\`; nginx ports chosen free per run):

\`\`\`
$(cat "$COMMANDS")
\`\`\`
EOF
