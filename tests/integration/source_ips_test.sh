#!/usr/bin/env bash
# --source-ips: each connection binds the next address (seen with ss), and a run this machine
# cannot hold is refused with exit 2, naming the limit, before it opens anything.
source "$(dirname "$0")/lib.sh" "$@"
command -v ss >/dev/null || fail "'ss' is not installed (apt-get install iproute2)"

start_serve --threads 1
PORT=$SERVE_PORT
URL=http://127.0.0.1:$PORT/

# Exact counts: 20 keep-alive users, 50 requests each, one connection each.
run_stampede counted -c 20 -n 50 -k -cpuNumber 2 --source-ips 127.0.0.2-127.0.0.3 --output json -u "$URL"
expect_rc 0
json_check "$OUT" <<'EOF_JSON'
g("requests.succeeded") == 1000 ## 20 users x 50
g("requests.failed") == 0
g("connections.opened") == 20 ## one per user
EOF_JSON

# While 20 keep-alive users hold their connections for 3 s, ss shows where they come from: the
# connections take the two addresses in turn, so 10 each, and none from 127.0.0.1.
"$STAMPEDE" -c 20 -n 0 -timeout 3 -k -cpuNumber 2 --source-ips 127.0.0.2-127.0.0.3 --output json \
  -u "$URL" >"$TEST_TMP/held.out" 2>"$TEST_TMP/held.err" &
HELD_PID=$!
_PIDS+=("$HELD_PID")
sources=""
for _ in $(seq 50); do
  # Client sides of the connections to the server: "Recv-Q Send-Q Local:Port Peer:Port".
  sources=$(ss -Htn state established "( dport = :$PORT )" | awk '{sub(/:[0-9]+$/, "", $3); print $3}' | sort | uniq -c)
  (($(awk '{n += $1} END {print n + 0}' <<<"$sources") >= 20)) && break
  sleep 0.05
done
log "connections to :$PORT by source address: $(tr -s ' \n' ' ' <<<"$sources")"
assert_eq "10 127.0.0.2|10 127.0.0.3" "$(awk '{print $1, $2}' <<<"$sources" | paste -sd '|')" \
  "established connections by source address"
wait "$HELD_PID" || fail "the held run exited $?: $(head -c 1000 "$TEST_TMP/held.err")"
_LAST_RUN=held
json_check "$TEST_TMP/held.out" <<'EOF_JSON'
g("stop_reason") == "time_limit"
g("connections.opened") == 20 ## one per user, each from its address
g("requests.failed") == 0
g("requests.succeeded") > 0
g("requests.total") == g("requests.succeeded") + g("requests.failed")
EOF_JSON

# An address this machine does not have cannot be bound: connect failures, named once.
if [[ $(cat /proc/sys/net/ipv4/ip_nonlocal_bind) == 0 ]]; then
  run_stampede foreign -c 2 -n 1 --source-ips 192.0.2.1 --output json -u "$URL"
  expect_rc 0
  json_assert "$OUT" 'g("errors.connect") == 2'
  grep -q 'first connect failure: .*(binding source address 192.0.2.1 of --source-ips' "$ERR" ||
    fail "foreign: the bind failure is not named: $(head -c 1000 "$ERR")"
fi

# Source addresses of the other family than the server's: refused before the run.
run_stampede other_family -c 1 -n 1 --source-ips ::1 -u "$URL"
expect_rc 1
grep -q "'127.0.0.1' has no IPv6 address, and --source-ips gives only IPv6 ones" "$ERR" ||
  fail "other_family: $(head -c 1000 "$ERR")"

# Refused runs go to a listener that logs each connection it accepts: it must log none.
cat >"$TEST_TMP/accepts.py" <<'EOF_PY'
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
s.settimeout(0.5)
end = time.time() + 120
while time.time() < end:
    try:
        c, peer = s.accept()
        open(sys.argv[2], "a").write("%s\n" % peer[0])
        c.close()
    except socket.timeout:
        pass
EOF_PY
start_py_server accepts "$PYTHON" "$TEST_TMP/accepts.py"
read -r port_low port_high </proc/sys/net/ipv4/ip_local_port_range
ports=$((port_high - port_low + 1))
# More users than local ports to one server: --source-ips is named as the way out.
run_stampede beyond_ports -c $((ports + 1)) -n 1 -k -u "http://127.0.0.1:$SERVER_PORT/"
expect_rc 2
grep -qF "offers $ports: use fewer users, widen that range, or add source addresses with --source-ips" "$ERR" ||
  fail "beyond_ports: $(head -c 1000 "$ERR")"
# Two source addresses lift the port bound; the open files (a hard limit of 1000 here) do not.
printf '#!/usr/bin/env bash\nulimit -n 1000 && exec "%s" "$@"\n' "$STAMPEDE" >"$TEST_TMP/ulimit_1000.sh"
chmod +x "$TEST_TMP/ulimit_1000.sh"
STAMPEDE=$TEST_TMP/ulimit_1000.sh run_stampede beyond_open_files -c $((ports + 1)) -n 1 -k \
  --source-ips 127.0.0.2-127.0.0.3 -u "http://127.0.0.1:$SERVER_PORT/"
expect_rc 2
grep -qF "needs about $((ports + 65)) open files (a socket per user and server) but at most 1000 can be open (the hard limit, ulimit -Hn)" "$ERR" ||
  fail "beyond_open_files: $(head -c 1000 "$ERR")"
# Nothing is left in the listener's accept queue (its Recv-Q) and what it accepted is logged.
for _ in $(seq 100); do
  [[ $(ss -Hltn "( sport = :$SERVER_PORT )" | awk '{print $2}') == 0 ]] && break
  sleep 0.05
done
settle_log "$SERVER_LOG"
# One connection: start_py_server's readiness probe, none from the refused runs.
assert_eq 1 "$(wc -l <"$SERVER_LOG")" "connections the listener accepted"
pass
