#!/usr/bin/env bash
# dashboard_cost.sh: what --dashboard costs a run, in the generator's CPU per request: the same
# keep-alive run against `stampede serve` without it, and with it and a viewer reading its feed
# (curl, which takes every message as a browser would), alternating, REPEATS of each.
#
#   bash bench/dashboard_cost.sh    # Markdown on stdout, progress on stderr
#   env: STAMPEDE (binary, default build-release/stampede; use a Release build), REPEATS
#        (default 3), SECONDS_EACH (each run's -z, default 10), USERS (-c, default 50).
#
# CPU is the run's user + system time (/usr/bin/time) over its requests. The viewer runs apart, as
# a browser would: its CPU is not the generator's.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

STAMPEDE=${STAMPEDE:-$ROOT/build-release/stampede}
REPEATS=${REPEATS:-3}
SECONDS_EACH=${SECONDS_EACH:-10}
USERS=${USERS:-50}
TMP=$(mktemp -d /tmp/stampede-dashboard-cost.XXXXXX)
SERVE_PID=""
cleanup() {
  [[ -n $SERVE_PID ]] && kill "$SERVE_PID" 2>/dev/null
  pkill -f "feed\?token=" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

"$STAMPEDE" serve --port 0 >"$TMP/serve.out" 2>&1 &
SERVE_PID=$!
for _ in $(seq 100); do
  grep -q "listening on" "$TMP/serve.out" 2>/dev/null && break
  sleep 0.05
done
URL=$(grep -o 'http://127.0.0.1:[0-9]*/' "$TMP/serve.out" | head -n 1)

# one_run NAME [FLAGS...]: prints "CPU_SECONDS REQUESTS".
one_run() {
  local name=$1
  shift
  /usr/bin/time -o "$TMP/$name.time" -f '%U %S' "$STAMPEDE" -c "$USERS" -z "${SECONDS_EACH}s" -k \
    -u "$URL" --output json "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" &
  local pid=$! dash=""
  if (($# > 0)); then
    for _ in $(seq 100); do
      dash=$(sed -nE 's|^stampede: --dashboard: (http://[^ ]+)$|\1|p' "$TMP/$name.err" | head -n 1)
      [[ -n $dash ]] && break
      sleep 0.05
    done
    local token
    token=$(curl -s "$dash" | grep -o '"token":"[0-9a-f]*"' | cut -d'"' -f4)
    curl -sN --max-time $((SECONDS_EACH + 10)) "${dash}feed?token=$token" >/dev/null &
    # The dashboard thread's own CPU, read half a second before the run's end.
    sleep "$(awk -v s="$SECONDS_EACH" 'BEGIN { print s - 0.5 }')"
    local run task
    run=$(pgrep -P "$pid" -x stampede | head -n 1)
    for task in /proc/"$run"/task/*; do
      [[ $(cat "$task/comm" 2>/dev/null) == stampede-dash ]] &&
        awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "$task/stat" >"$TMP/$name.dash"
    done
  fi
  wait "$pid"
  python3 - "$TMP/$name.time" "$TMP/$name.json" "$TMP/$name.dash" <<'PY'
import json, os, sys
user, system = open(sys.argv[1]).read().split()[-2:]
dash = open(sys.argv[3]).read().strip() if os.path.exists(sys.argv[3]) else "0"
print(float(user) + float(system), json.load(open(sys.argv[2]))["requests"]["total"], dash)
PY
}

echo "| run | CPU s | requests | CPU µs a request | the dashboard thread's CPU s (share) |"
echo "| --- | --- | --- | --- | --- |"
for round in $(seq "$REPEATS"); do
  for mode in without with; do
    if [[ $mode == with ]]; then
      read -r cpu requests dash < <(one_run "$mode$round" --dashboard 127.0.0.1:0)
    else
      read -r cpu requests dash < <(one_run "$mode$round")
    fi
    echo "round $round $mode: $cpu s, $requests requests, dashboard $dash s" >&2
    awk -v m="$mode" -v r="$round" -v c="$cpu" -v n="$requests" -v d="$dash" \
      'BEGIN { printf "| %s the dashboard (%d) | %.2f | %d | %.3f | %s |\n", m, r, c, n, c * 1e6 / n,
               m == "with" ? sprintf("%.2f (%.2f%%)", d, 100 * d / c) : "" }'
  done
done
