#!/usr/bin/env bash
# --dashboard: the live page a run serves while it goes, against `stampede serve`. In headless
# Chromium (Debian's, driven over the DevTools protocol by dashboard/drive.py): the page's figures
# at second N are the run's through second N and at the end the JSON report's, every chart drawn,
# the saved page a blob; its Stop button stops the run as Ctrl-C does. Without a browser: 100
# viewers that never read neither hold the run past its end nor grow its memory past 64 MiB; what
# comes without the token, from another origin or for another host is refused (403) and stops
# nothing; a --dashboard that is no address is a usage error. From the feed alone: a sweep's
# seconds with its steps done beside them, its end the sweep's page, its stop a Ctrl-C; the
# thresholds' verdicts as they stand. A held run's connections and a --rate run's rate asked, drawn
# second by second. About 50 s (Chromium's start included, a second or so per case that drives
# it).
# Every case runs (in a subshell) even when an earlier one failed; the script fails at the end
# listing the failed cases. DASHBOARD_CASES='live stop' runs only the cases whose names start so.
# shellcheck disable=SC2317  # the case_* functions are called indirectly, by name
source "$(dirname "$0")/lib.sh" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
DRIVE=$HERE/dashboard/drive.py
DRIVE_PY=/usr/bin/python3  # Debian's python3-websockets is the system interpreter's
STAMPEDE_LIMIT=${STAMPEDE_LIMIT:-60}
command -v chromium >/dev/null || fail "chromium is not installed (scripts/install-deps.sh --test)"
command -v curl >/dev/null || fail "curl is not installed (scripts/install-deps.sh --test)"
"$DRIVE_PY" -c 'import websockets.client' 2>/dev/null ||
  fail "$DRIVE_PY cannot import websockets (apt-get install -y python3-websockets)"
HAVE_TIME=0
[[ -x /usr/bin/time ]] && HAVE_TIME=1

# start_dashboard NAME [--rss FILE] ARGS...: stampede ARGS --dashboard 127.0.0.1:0 --output json in
# the background (bounded by STAMPEDE_LIMIT; with --rss, its peak RSS in KiB goes to FILE), stopped
# when the case ends; waits (at most 30 s) for its dashboard line. Sets PID, OUT, ERR, T0,
# DASH_URL (http://127.0.0.1:PORT) and DASH_PORT.
start_dashboard() {
  local name=$1 i rss=()
  shift
  RSS_FILE=""
  if [[ $1 == --rss ]]; then
    RSS_FILE=$2
    ((HAVE_TIME)) && rss=(/usr/bin/time -o "$RSS_FILE" -f %M)
    shift 2
  fi
  _LAST_RUN=$name
  OUT=$TEST_TMP/$name.out
  ERR=$TEST_TMP/$name.err
  T0=$(date +%s%N)
  env --default-signal=INT timeout -k 5 "$STAMPEDE_LIMIT" "${rss[@]}" "$STAMPEDE" "$@" \
    --dashboard 127.0.0.1:0 --output json >"$OUT" 2>"$ERR" &
  PID=$!
  CASE_PIDS+=("$PID")
  log "$name: stampede $* --dashboard 127.0.0.1:0 --output json (pid $PID)"
  DASH_URL=""
  for ((i = 0; i < 600; i++)); do
    DASH_URL=$(sed -nE 's|^stampede: --dashboard: (http://127\.0\.0\.1:[0-9]+)/$|\1|p' "$ERR" | head -n 1)
    [[ -n $DASH_URL ]] && break
    kill -0 "$PID" 2>/dev/null || fail "$name: stampede ended without its dashboard line: $(head -c 2000 "$ERR")"
    sleep 0.05
  done
  [[ -n $DASH_URL ]] || fail "$name: no 'stampede: --dashboard: http://127.0.0.1:PORT/' line within 30 s: $(head -c 2000 "$ERR")"
  DASH_PORT=${DASH_URL##*:}
  log "$name: dashboard at $DASH_URL/"
}

# stop_case_pids: on a case's exit, stops what it started (a failed case leaves no run behind).
CASE_PIDS=()
stop_case_pids() {
  local i
  for i in "${CASE_PIDS[@]}"; do _stop_pid "$i"; done
}

# wait_run SECONDS: waits (at most SECONDS) for the run PID to end; sets RC, ELAPSED (from its
# start) and, after start_dashboard --rss, RSS_KB (its peak RSS: /usr/bin/time's, or else the
# last VmHWM polled).
wait_run() {
  local i hwm=0 child v
  for ((i = 0; i < $1 * 10; i++)); do
    kill -0 "$PID" 2>/dev/null || break
    if [[ -n $RSS_FILE ]] && ((!HAVE_TIME)); then
      child=$(pgrep -P "$PID" | head -n 1) || true  # timeout's child: stampede
      v=$(awk '/^VmHWM:/ { print $2 }' "/proc/${child:-0}/status" 2>/dev/null) || true
      ((${v:-0} > hwm)) && hwm=$v
    fi
    sleep 0.1
  done
  kill -0 "$PID" 2>/dev/null && fail "$_LAST_RUN: stampede was still running after $1 s"
  set +e
  wait "$PID"
  RC=$?
  set -e
  ELAPSED=$(awk -v a="$T0" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  if [[ -n $RSS_FILE ]]; then
    if ((HAVE_TIME)); then RSS_KB=$(tail -n 1 "$RSS_FILE"); else RSS_KB=$hwm; fi
  fi
  log "$_LAST_RUN: exit $RC in ${ELAPSED}s$([[ -n $RSS_FILE ]] && echo ", peak RSS ${RSS_KB} KiB")"
  ((RC != 124 && RC != 137)) || fail "$_LAST_RUN: stampede did not finish within ${STAMPEDE_LIMIT}s (killed by timeout)"
}

# dash_token: the token of the page at DASH_URL/ (its stampede-run JSON's live.token).
dash_token() {
  "$PYTHON" - "$DASH_URL/" <<'PY' || fail "$_LAST_RUN: no token in the page at $DASH_URL/"
import json, re, sys, urllib.request
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no proxy
page = opener.open(sys.argv[1], timeout=10).read().decode()
data = re.search(r'<script type="application/json" id="stampede-run">(.*?)</script>', page, re.S)
if not data:
    sys.exit("the page has no stampede-run script")
token = json.loads(data.group(1)).get("live", {}).get("token", "")
if not re.fullmatch(r"[0-9a-f]{32}", token):
    sys.exit("live.token is %r, not 32 hex digits" % token)
print(token)
PY
}

# drive SUBCOMMAND ARGS...: dashboard/drive.py, bounded; its JSON on stdout.
drive() {
  timeout -k 5 120 "$DRIVE_PY" "$DRIVE" "$@" || fail "$_LAST_RUN: drive.py $1 failed (its reason is above)"
}

# A run at 200 requests/s for 8 s, watched: at second N (3 or just past it) the page shows the
# requests of the report's first N per-second rows; at the end, the JSON report's figures, every
# chart drawn with every row, and a save link to a blob. About 10 s. Chromium starts first and
# the run once it is up, then the page opens: its start took 8 s once, as CI's first test beside
# a build, and the page came after the run's end.
case_live() {
  trap stop_case_pids EXIT
  local url_file=$TEST_TMP/live_url ready=$TEST_TMP/live_ready drive_pid i
  rm -f "$url_file" "$ready"
  timeout -k 5 120 "$DRIVE_PY" "$DRIVE" watch "@$url_file" --ready "$ready" --seconds 3 \
    --out "$TEST_TMP/live_a.json" --end-out "$TEST_TMP/live_b.json" >"$TEST_TMP/live_drive.json" &
  drive_pid=$!
  CASE_PIDS+=("$drive_pid")
  for ((i = 0; i < 1200; i++)); do
    [[ ! -e $ready ]] && kill -0 "$drive_pid" 2>/dev/null || break
    sleep 0.05
  done
  [[ -e $ready ]] || fail "live: drive.py's Chromium was not up within 60 s"
  start_dashboard live --rate 200 -c 4 -z 8s -k -u "$SERVE/"
  echo "$DASH_URL/" >"$url_file.part" && mv "$url_file.part" "$url_file"
  wait "$drive_pid" || fail "live: drive.py watch failed (its reason is above)"
  log "live: drive.py saw $(cat "$TEST_TMP/live_drive.json")"
  wait_run 20
  expect_rc 0
  json_check "$OUT" <<'EOF'
g("stop_reason") == "duration" and g("requests.total") > 0 and g("requests.failed") == 0
EOF
  "$PYTHON" - "$OUT" "$TEST_TMP/live_a.json" "$TEST_TMP/live_b.json" <<'PY' || fail "live: the page does not show the run (see above)"
import json, sys
report, at, end = (json.load(open(p)) for p in sys.argv[1:4])
RUN_CHARTS = ("rps", "latency", "status", "distribution", "percentiles")
FIELDS = ("requests.total", "requests.succeeded", "requests.failed", "rps", "duration_s",
          "latency_ms.p50", "latency_ms.p99", "latency_ms.max")
failures = []

def get(obj, path):
    for key in path.split("."):
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj

def same(shown, value):  # as check_page.py's
    return isinstance(shown, float) and value is not None and abs(shown - value) <= 1e-9 * max(1.0, abs(value))

rows = report["per_second"]
n = at["second"]
# (a) the page at second N shows the run through second N.
want = sum(r["succeeded"] + r["failed"] for r in rows[:n])
shown = at["fields"].get("requests.total")
if n > len(rows):
    failures.append(f"(a) the page drew {n} seconds, the report has {len(rows)} rows")
elif not same(shown, want):
    failures.append(f"(a) at data-second {n} the page shows requests.total {shown!r}; the report's "
                    f"first {n} rows add up to {want} (rows: {[r['succeeded'] + r['failed'] for r in rows]})")
# (b) at the end, the JSON report's figures.
for path in FIELDS:
    shown, value = end["fields"].get(path), get(report, path)
    if not same(shown, value):
        failures.append(f"(b) at the end the page shows {path} {shown!r}, the report says {value!r}")
if end["second"] != len(rows):
    failures.append(f"(b) at the end data-second is {end['second']}, the report has {len(rows)} rows")
# (c) every run chart drawn, the per-second ones with one point a second drawn.
for name, shot, points in (("at second %d" % n, at, n), ("at the end", end, len(rows))):
    for chart in RUN_CHARTS:
        got = shot["charts"].get(chart) or {}
        if got.get("drawn") != "true" or not got.get("canvases"):
            failures.append(f"(c) {name}: chart {chart} not drawn ({got})")
        elif chart in ("rps", "latency", "status") and got.get("points") != str(points):
            failures.append(f"(c) {name}: chart {chart} has {got.get('points')} points, want {points}")
    if shot["conflicts"]:
        failures.append(f"{name}: one field shows two values: {shot['conflicts']}")
# (d) the saved page: a blob, once the run ended.
save = end["save"] or {}
if not (save.get("visible") and save.get("blob")):
    failures.append(f"(d) at the end #save is {save}, want a visible link to a blob:")
if at["save"] and at["save"]["visible"]:
    failures.append("(d) #save was visible while the run went")
for failure in failures:
    print("  " + failure, file=sys.stderr)
sys.exit(1 if failures else 0)
PY
}

# 100 viewers that ask for the feed and never read (their windows small and soon full): the run
# of 4 s ends on time with its requests counted, and its peak memory is at most 64 MiB over the
# same run's without them (in a release build: AddressSanitizer's quarantine holds freed memory).
# About 9 s (two runs).
case_stalled_viewers() {
  trap stop_case_pids EXIT
  local base token viewers
  start_dashboard stalled_base --rss "$TEST_TMP/stalled_base.rss" -c 4 -z 4s -k -u "$SERVE/"
  wait_run 20
  expect_rc 0
  base=$RSS_KB
  start_dashboard stalled --rss "$TEST_TMP/stalled.rss" -c 4 -z 4s -k -u "$SERVE/"
  token=$(dash_token)
  "$PYTHON" - "$DASH_PORT" "$token" "$PID" 100 >"$TEST_TMP/stalled_viewers.json" <<'PY' &
import json, select, socket, sys, time
port, token, pid, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def gone(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return True

request = (f"GET /feed?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
           "Accept: text/event-stream\r\n\r\n").encode()
viewers, failed = [], 0
for _ in range(count):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window, soon full
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(request)
        viewers.append(s)
    except OSError:
        failed += 1
# Each answer's status line, peeked at (MSG_PEEK reads nothing: the window stays full), 3 s at most.
statuses, pending, deadline = {}, list(viewers), time.time() + 3
while pending and time.time() < deadline:
    ready, _, _ = select.select(pending, [], [], 0.1)
    for s in ready:
        try:
            head = s.recv(64, socket.MSG_PEEK)
        except OSError:
            head = b""
        if head and b"\r\n" not in head:
            continue
        status = head.split(b" ")[1].decode() if head.startswith(b"HTTP/1.") else ("closed" if not head else "other")
        statuses[status] = statuses.get(status, 0) + 1
        pending.remove(s)
    time.sleep(0.02)
if pending:
    statuses["no answer"] = len(pending)
# Held, never read, until the run's process has gone (30 s at most).
end = time.time() + 30
while not gone(pid) and time.time() < end:
    time.sleep(0.1)
print(json.dumps({"connected": len(viewers), "connect_failed": failed, "statuses": statuses,
                  "held_until_exit": gone(pid)}))
PY
  viewers=$!
  CASE_PIDS+=("$viewers")
  wait_run 20
  wait "$viewers" || fail "stalled: the viewers' script failed"
  log "stalled: the viewers: $(cat "$TEST_TMP/stalled_viewers.json")"
  expect_rc 0
  json_check "$OUT" <<'EOF'
g("stop_reason") == "duration" and g("requests.total") > 0
EOF
  "$PYTHON" - "$TEST_TMP/stalled_viewers.json" <<'PY' || fail "stalled: the viewers were not all served (above)"
import json, sys
v = json.load(open(sys.argv[1]))
if v["connected"] != 100 or v["statuses"].get("200", 0) == 0 or set(v["statuses"]) - {"200", "503"}:
    sys.exit(f"  100 viewers: {v} (want every one connected and answered, some with 200)")
PY
  awk -v t="$ELAPSED" 'BEGIN { exit !(t < 8) }' || fail "stalled: a run of 4 s took ${ELAPSED}s with 100 stalled viewers"
  log "stalled: peak RSS ${RSS_KB} KiB with the viewers, ${base} KiB without"
  ((SANITIZED || RSS_KB - base <= 64 * 1024)) ||
    fail "stalled: peak RSS ${RSS_KB} KiB with 100 stalled viewers, ${base} KiB without: over +64 MiB"
}

# Stop clicked once the page drew a second: the run ends as with Ctrl-C (exit 0, a full report,
# stop_reason interrupted) within 5 s of the click, and the page says it ended (or, had the
# process gone first, that it lost it). About 5 s.
case_stop() {
  trap stop_case_pids EXIT
  local exited clicked
  start_dashboard stop -c 2 -z 60s -k -u "$SERVE/delay/5"
  drive stop "$DASH_URL/" --after-second 1 --pid "$PID" >"$TEST_TMP/stop_drive.json"
  wait_run 15
  exited=$(date +%s.%N)
  clicked=$(json_eval "$TEST_TMP/stop_drive.json" 'g("clicked_at")')
  log "stop: the page went $(json_eval "$TEST_TMP/stop_drive.json" 'g("outcome")') $(json_eval "$TEST_TMP/stop_drive.json" 'g("click_to_outcome_s")') s after the click (seen: $(json_eval "$TEST_TMP/stop_drive.json" 'g("live_seen")')); the process exited $(awk -v a="$clicked" -v b="$exited" 'BEGIN { printf "%.2f", b - a }') s after it"
  expect_rc 0
  json_check "$OUT" <<'EOF'
g("stop_reason") == "interrupted" and g("requests.total") > 0 and g("requests.failed") == 0
g("duration_s") < 30 ## stopped, not run to its -z 60s
EOF
  awk -v a="$clicked" -v b="$exited" 'BEGIN { exit !(b - a < 5) }' ||
    fail "stop: the process exited $(awk -v a="$clicked" -v b="$exited" 'BEGIN { print b - a }') s after the click"
}

# What must not stop a run or show its feed: /stop without the token, with a wrong one, with the
# token from another origin or for another host; /feed without the token or with a wrong one; the
# page for another host (DNS rebinding). Each 403; the run then ends at its -z, not before. And
# `--dashboard nonsense` is a usage error in one line. About 5 s.
case_refusals() {
  trap stop_case_pids EXIT
  local token wrong=0123456789abcdef0123456789abcdef
  start_dashboard refusals -c 2 -z 4s -k -u "$SERVE/delay/5"
  token=$(dash_token)
  [[ $token != "$wrong" ]] || fail "refusals: the token is the test's wrong one"
  expect_code 403 "POST /stop without a token" -X POST "$DASH_URL/stop"
  expect_code 403 "POST /stop with a wrong token" -X POST -H "X-Stampede-Token: $wrong" "$DASH_URL/stop"
  expect_code 403 "POST /stop with the token from another origin" -X POST -H "X-Stampede-Token: $token" \
    -H 'Origin: http://evil.example' "$DASH_URL/stop"
  expect_code 403 "POST /stop with the token for another host" -X POST -H "X-Stampede-Token: $token" \
    -H 'Host: evil.example' "$DASH_URL/stop"
  expect_code 403 "GET /feed with a wrong token" "$DASH_URL/feed?token=$wrong"
  expect_code 403 "GET /feed without a token" "$DASH_URL/feed"
  expect_code 403 "GET / for another host" -H 'Host: evil.example' "$DASH_URL/"
  expect_code 403 "GET / for another port" -H "Host: 127.0.0.1:$((DASH_PORT == 65535 ? 1 : DASH_PORT + 1))" "$DASH_URL/"
  # Controls: the same requests, right, are answered (a stream's answer is cut after 1 s).
  expect_code 200 "GET /" "$DASH_URL/"
  expect_code 200 "GET /feed with the token" --max-time 1 "$DASH_URL/feed?token=$token"
  kill -0 "$PID" 2>/dev/null || fail "refusals: the run ended before the requests were all made: $(head -c 2000 "$ERR")"
  wait_run 20
  expect_rc 0
  json_check "$OUT" <<'EOF'
g("stop_reason") == "duration" and g("requests.total") > 0
EOF
  took 3.9 5 "-z 4s, with requests to stop it refused"
  run_stampede refusals_usage -n 1 -u "$SERVE/" --dashboard nonsense
  expect_rc 2
  if [[ $(wc -l <"$ERR") -ne 1 ]] || ! grep -q -- '--dashboard' "$ERR"; then
    fail "refusals_usage: want one line about --dashboard, got: $(head -c 2000 "$ERR")"
  fi
}

# A sweep of two levels, read from its feed: each second shows the step under way, and from the
# second step on the steps done beside it; the end, the sweep's page (its two steps, no run). Then a
# sweep stopped by POST /stop during its first step: exit 0, the sweep interrupted with no step
# done, as Ctrl-C. About 6 s.
case_sweep() {
  trap stop_case_pids EXIT
  local token
  start_dashboard sweep --sweep 1,2 -z 2s --warmup 0 -k -u "$SERVE/"
  token=$(dash_token)
  curl -sN --noproxy '*' --max-time 20 "$DASH_URL/feed?token=$token" >"$TEST_TMP/sweep.feed" || true
  wait_run 20
  expect_rc 0
  json_assert "$OUT" 'len(g("sweep.steps")) == 2 and g("sweep.interrupted") is False'
  "$PYTHON" - "$TEST_TMP/sweep.feed" <<'PY' || fail "sweep: the feed does not follow the sweep (above)"
import json, sys
events, name = [], None
for line in open(sys.argv[1]):
    if line.startswith("event: "):
        name = line[7:].strip()
    elif line.startswith("data: "):
        events.append((name, json.loads(line[6:])))
ticks = [m for n, m in events if n == "tick"]
ends = [m for n, m in events if n == "end"]
done = [len((m["data"].get("sweep") or {}).get("steps", [])) for m in ticks]
problems = []
if len(ends) != 1 or events[-1][0] != "end":
    problems.append(f"want one end, last: {[n for n, _ in events]}")
if not ticks or any(m["data"]["report"] is None for m in ticks):
    problems.append("a second without the step under way")
if 0 not in done or 1 not in done or done != sorted(done):
    problems.append(f"steps done, second by second: {done} (want 0s, then 1s)")
if ends:
    end = ends[0]
    if end["data"]["report"] is not None or len(end["data"]["sweep"]["steps"]) != 2 or "page" not in end:
        problems.append("the end is not the sweep's page with its two steps")
# Each step's seconds start over: a new run is sent from its first second.
if sum(1 for m in ticks if m["from"] == 0) < 2:
    problems.append(f"froms: {[m['from'] for m in ticks]} (want each step's from 0)")
for p in problems:
    print("  sweep: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
  start_dashboard sweep_stop --sweep 1,2 -z 5s --warmup 0 -k -u "$SERVE/delay/5"
  token=$(dash_token)
  for _ in $(seq 100); do # the stop is armed once the first second is under way
    [[ $(curl -s --noproxy '*' -o /dev/null -w '%{http_code}' -X POST -H "X-Stampede-Token: $token" \
      "$DASH_URL/stop") == 200 ]] && break
    sleep 0.1
  done
  wait_run 20
  expect_rc 0
  json_assert "$OUT" 'g("sweep.interrupted") is True and len(g("sweep.steps")) == 0'
  awk -v t="$ELAPSED" 'BEGIN { exit !(t < 4) }' ||
    fail "sweep_stop: a sweep of two 5 s steps, stopped in its first, took ${ELAPSED}s"
}

# Thresholds as they stand, each second: one that holds passes from the first second, one that
# cannot hold fails from it (and the run's exit status is 3 at its end, as without the dashboard).
# About 4 s.
case_thresholds() {
  trap stop_case_pids EXIT
  local token
  start_dashboard thresholds -c 2 -z 3s -k -u "$SERVE/" --threshold 'p99<10s' --threshold 'rps<1'
  token=$(dash_token)
  curl -sN --noproxy '*' --max-time 20 "$DASH_URL/feed?token=$token" >"$TEST_TMP/thresholds.feed" || true
  wait_run 20
  expect_rc 3
  "$PYTHON" - "$TEST_TMP/thresholds.feed" <<'PY' || fail "thresholds: the feed's verdicts are not as they stand (above)"
import json, sys
ticks = [json.loads(line[6:]) for line in open(sys.argv[1]) if line.startswith("data: ")]
seen = [[(t["threshold"], t["passed"]) for t in m["data"]["report"].get("thresholds", [])] for m in ticks]
want = [("p99<10s", True), ("rps<1", False)]
if len(ticks) < 2 or any(s != want for s in seen):
    print(f"  thresholds: second by second {seen}, want {want} in each", file=sys.stderr)
    sys.exit(1)
PY
}

# A held WebSocket run, watched: its connections open, second by second, are drawn as they come
# (the feed's seconds carry them), and at the end as the report's connections.per_second; a --rate
# run's seconds draw the rate asked beside the rates done. Each is stopped from its page once it
# drew its seconds. About 8 s.
case_held() {
  trap stop_case_pids EXIT
  # Long runs, stopped by the page once it drew its seconds: Chromium's start, slow on a loaded
  # machine, cannot outlast them.
  start_dashboard held -c 20 -n 1 --hold 30 -u "ws://127.0.0.1:$SERVE_PORT/echo" -data hi
  drive watch "$DASH_URL/" --seconds 3 --stop --out "$TEST_TMP/held_a.json" \
    --end-out "$TEST_TMP/held_b.json" >/dev/null
  wait_run 20
  expect_rc 0
  "$PYTHON" - "$OUT" "$TEST_TMP/held_a.json" "$TEST_TMP/held_b.json" <<'PY' || fail "held: the page does not draw the connections (above)"
import json, sys
report, at, end = (json.load(open(p)) for p in sys.argv[1:4])
rows = report["connections"]["per_second"]
problems = []
for name, shot, points in (("at second %d" % at["second"], at, at["second"]), ("at the end", end, len(rows))):
    chart = shot["charts"].get("connections") or {}
    if (chart.get("drawn"), chart.get("points"), chart.get("series")) != ("true", str(points), "3"):
        problems.append(f"{name}: the connections chart is {chart}, want {points} points of 3 series")
if rows[0]["open"] != 20:
    problems.append(f"the report's first second has {rows[0]['open']} open, want 20")
for p in problems:
    print("  held: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
  start_dashboard rate --rate 100 -z 30s -u "$SERVE/"
  drive watch "$DASH_URL/" --seconds 2 --stop --out "$TEST_TMP/rate_a.json" \
    --end-out "$TEST_TMP/rate_b.json" >/dev/null
  wait_run 20
  expect_rc 0
  json_assert "$TEST_TMP/rate_b.json" 'g("charts.rps.series") == "4"' "rate: the rps chart has the rate asked"
}

# expect_code CODE WHAT CURL_ARGS...: curl (loopback, no proxy) answers CODE.
expect_code() {
  local want=$1 what=$2 got
  shift 2
  got=$(curl -s -o /dev/null -w '%{http_code}' --noproxy '*' --max-time 5 "$@") || true
  log "refusals: $what -> $got"
  [[ $got == "$want" ]] || fail "refusals: $what: HTTP $got, want $want"
}

start_serve
SERVE=http://127.0.0.1:$SERVE_PORT
run_cases "${DASHBOARD_CASES:-}" live stalled_viewers stop refusals sweep thresholds held
pass
