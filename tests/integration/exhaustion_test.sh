#!/usr/bin/env bash
# Out of ports, out of open files, stopped at high -c: every request completed, failed by kind, or abandoned.
# It runs in a network namespace of its own (unshare -n, as root): its tiny port range and its
# thousands of connections touch nothing outside it.
if [[ ${STAMPEDE_NETNS:-} != 1 ]]; then
  if ! unshare -n true 2>/dev/null; then
    echo "FAIL [exhaustion_test]: 'unshare -n' does not work here (it needs root and util-linux)" >&2
    exit 1
  fi
  STAMPEDE_NETNS=1 exec unshare -n bash "$0" "$@"
fi
ip link set lo up || { echo "FAIL [exhaustion_test]: cannot bring up lo in the namespace" >&2; exit 1; }
source "$(dirname "$0")/lib.sh" "$@"
command -v prlimit >/dev/null || fail "'prlimit' is not installed (apt-get install util-linux)"

# wait_for_lines N TEXT: waits (at most 20 s) until nginx has logged N requests containing TEXT:
# the run is under way (its threads have made their sockets and timers).
wait_for_lines() {
  local i
  for i in $(seq 200); do
    (($(grep -cF -- "$2" "$ACCESS_LOG" 2>/dev/null || true) >= $1)) && return 0
    kill -0 "$PID" 2>/dev/null || fail "$_LAST_RUN: stampede ended early; stderr: $(head -c 2000 "$ERR")"
    sleep 0.1
  done
  fail "$_LAST_RUN: nginx did not log $1 requests with '$2' within 20 s"
}

# 1. No ephemeral port left: 101 ports, another process holds 60 of them, 80 kept-alive users.
# The check before the run passes (80 users fit the range); each user the ports run out for at
# connect time fails with kind connect and the system's reason; every request is counted once.
sysctl -qw net.ipv4.ip_local_port_range="40000 40100"
start_nginx "$TEST_TMP/nginx"
"$PYTHON" -c 'import socket, sys, time
held = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(60)]
open(sys.argv[2], "w").write("held")
time.sleep(60)' "$HTTP_PORT" "$TEST_TMP/held" &
HOLDER=$!
_PIDS+=("$HOLDER")
wait_for_file "$TEST_TMP/held" "$HOLDER" || fail "ports: the holder did not take its 60 ports"
run_stampede ports -c 80 -n 2 -k -t 5 -timeout 30 -u "$HTTP_URL/?run=ports" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 160 and g("requests.abandoned") == 0 ## c x n requests, every one completed
g("stop_reason") == "completed"
g("errors.connect") > 0 ## 80 users, 41 ports left
g("requests.succeeded") + g("errors.connect") == 160 ## connect is the only failure
g("requests.succeeded") > 0
EOF
grep -q "first connect failure: Cannot assign requested address" "$ERR" ||
  fail "ports: no warning with the real reason (EADDRNOTAVAIL); stderr: $(head -c 2000 "$ERR")"
assert_eq "$(json_eval "$OUT" 'g("requests.succeeded")')" \
  "$(count_requests "$ACCESS_LOG" 'GET /?run=ports ')" "requests nginx answered"
kill "$HOLDER" 2>/dev/null || true
sysctl -qw net.ipv4.ip_local_port_range="32768 60999"

# 2. No file descriptor left: the limit drops below what is open while users connect anew
# for each request. The rest fail with kind connect and the system's reason, at once.
# Not under the sanitizers (scripts/test.sh's second run): with no descriptor left their runtime
# reports false errors ("invalid vptr ... <memory cannot be printed>" from spdlog and
# boost::system, seen only at this prlimit): it checks that memory is readable through a pipe.
if ((SANITIZED)); then
  log "files: skipped in a sanitizer build (the plain build runs it)"
else
start_background files -c 4 -n 20000 -t 5 -timeout 40 -u "$HTTP_URL/?run=files" --output json
wait_for_lines 50 "?run=files "
prlimit --pid "$PID" --nofile=8:8
wait_background 45
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 80000 and g("requests.abandoned") == 0 ## c x n requests, every one completed
g("stop_reason") == "completed"
g("errors.connect") > 0
g("requests.succeeded") + g("errors.connect") == 80000 ## connect is the only failure
EOF
grep -q "first connect failure: Too many open files" "$ERR" ||
  fail "files: no warning with the real reason (EMFILE); stderr: $(head -c 2000 "$ERR")"
assert_eq "$(json_eval "$OUT" 'g("requests.succeeded")')" \
  "$(count_requests "$ACCESS_LOG" 'GET /?run=files ')" "requests nginx answered"

# 3. Same, without an end but -timeout: a user whose every connect fails at once must still let
# its thread stop on time.
start_background files_forever -c 4 -n 0 -t 5 -timeout 3 -u "$HTTP_URL/?run=forever" --output json
wait_for_lines 50 "?run=forever "
prlimit --pid "$PID" --nofile=8:8
wait_background 20
expect_rc 0
json_check "$OUT" <<'EOF'
g("stop_reason") == "time_limit"
g("errors.connect") > 0
g("requests.succeeded") + g("errors.connect") == g("requests.total")
g("requests.abandoned") <= 4 ## at most one request in flight per user
EOF
fi

# 4. Ctrl-C at high -c as soon as the first request is answered, so while users are still
# starting (nginx takes 1,024 connections at a time; the rest wait in connect). With -n 1 every
# user started has started one request, so the counts must add up to users_started exactly.
hard=$(ulimit -Hn)
users=15000
[[ $hard != unlimited ]] && ((hard < 16000)) && users=$((hard - 1000))
start_background sigint -c "$users" -n 1 -t 20 -timeout 40 -u "$HTTP_URL/?run=sigint" --output json
wait_for_lines 1 "?run=sigint "
kill -INT "$PID"
wait_background 40
expect_rc 0
json_check "$OUT" <<EOF
g("stop_reason") == "interrupted"
0 < g("users_started") <= $users
g("requests.succeeded") + g("requests.failed") + g("requests.abandoned") == g("users_started") ## -n 1: one request per user started
g("requests.succeeded") + g("requests.failed") == g("requests.total")
EOF
total=$(json_eval "$OUT" 'g("requests.total")')
abandoned=$(json_eval "$OUT" 'g("requests.abandoned")')
logged=$(count_requests "$ACCESS_LOG" 'GET /?run=sigint ')
assert_le "$logged" $((total + abandoned)) "nginx saw no request beyond those started"

# 5. The same stopped by -timeout.
run_stampede time_limit -c "$users" -n 1 -t 20 -timeout 1 -u "$HTTP_URL/?run=time_limit" --output json
expect_rc 0
json_check "$OUT" <<EOF
g("stop_reason") == "time_limit"
0 < g("users_started") <= $users
g("requests.succeeded") + g("requests.failed") + g("requests.abandoned") == g("users_started") ## -n 1: one request per user started
EOF
pass
