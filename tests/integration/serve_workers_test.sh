#!/usr/bin/env bash
# `stampede serve --workers 2 --port 0`: one port, two processes both taking connections, all stopped by SIGTERM.
source "$(dirname "$0")/lib.sh" "$@"

HELD=64

"$STAMPEDE" serve --port 0 --workers 2 --threads 1 >"$TEST_TMP/serve.out" 2>"$TEST_TMP/serve.err" &
SERVE_PID=$!
_PIDS+=("$SERVE_PID")
_watch "$SERVE_PID"
wait_for_file "$TEST_TMP/serve.out" "$SERVE_PID" || fail "serve did not start: $(head -c 1000 "$TEST_TMP/serve.err")"
BANNER=$(head -n 1 "$TEST_TMP/serve.out")
PORT=$(sed -nE 's|.*listening on http://127\.0\.0\.1:([0-9]+)/.*|\1|p' <<<"$BANNER")
[[ -n $PORT ]] || fail "no port in serve's first line: $BANNER"
[[ $BANNER == *"(2 workers sharing the port, 1 thread each; Ctrl-C stops)" ]] || fail "banner: $BANNER"
# The banner comes once every worker listens: no wait for the port.
(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || fail "nothing accepts on :$PORT after the banner"
mapfile -t WORKERS < <(pgrep -P "$SERVE_PID")
assert_eq 2 "${#WORKERS[@]}" "worker processes of $SERVE_PID"
log "stampede serve (pid $SERVE_PID, workers ${WORKERS[*]}) on 127.0.0.1:$PORT"

# sockets PID: how many sockets the process has open.
sockets() { find "/proc/$1/fd" -lname 'socket:*' 2>/dev/null | wc -l; }
# server_ends: the server's ends of connections on the port, any state but LISTEN (/proc/net/tcp).
server_ends() { awk -v port="$(printf ':%04X' "$PORT")" '$2 ~ port "$" && $4 != "0A"' /proc/net/tcp | wc -l; }
# The probe above is closed by the worker that took it once it reads the end: counted before
# that, its socket would count as one the worker lost (CI's sanitized build took long enough).
for _ in $(seq 100); do
  (($(server_ends) == 0)) && break
  sleep 0.05
done
(($(server_ends) == 0)) || fail "the probe's connection is still open on the server 5 s later"
BEFORE=()
for w in "${WORKERS[@]}"; do BEFORE+=("$(sockets "$w")"); done

# Hold $HELD keep-alive connections, each answered once, until told to stop (30 s at most).
mkfifo "$TEST_TMP/go"
"$PYTHON" - "$PORT" "$HELD" "$TEST_TMP/go" >"$TEST_TMP/held.out" 2>&1 <<'EOF' &
import socket, sys, time
port, count, fifo = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
held = []
for _ in range(count):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n")
    answer = b""
    while not answer.endswith(b"hello stampede\n"):
        chunk = s.recv(4096)
        if not chunk:
            sys.exit("closed before answering")
        answer += chunk
    held.append(s)
print("held", len(held), flush=True)
with open(fifo) as f:  # blocks until the script opens it for writing
    f.read()
EOF
HOLDER=$!
_PIDS+=("$HOLDER")
for _ in $(seq 100); do
  grep -q "^held $HELD" "$TEST_TMP/held.out" 2>/dev/null && break
  kill -0 "$HOLDER" 2>/dev/null || fail "the client failed: $(cat "$TEST_TMP/held.out")"
  sleep 0.1
done
grep -q "^held $HELD" "$TEST_TMP/held.out" || fail "the client did not connect: $(cat "$TEST_TMP/held.out")"

# The kernel spreads connections over the two listeners by their addresses: with 64, both
# workers take some (all on one would happen once in 2^63 runs).
TOTAL=0
for i in 0 1; do
  GAINED=$(($(sockets "${WORKERS[i]}") - BEFORE[i]))
  log "worker ${WORKERS[i]} holds $GAINED of the $HELD connections"
  ((GAINED > 0)) || fail "worker ${WORKERS[i]} took no connection"
  TOTAL=$((TOTAL + GAINED))
done
assert_eq "$HELD" "$TOTAL" "connections held by the two workers"
echo >"$TEST_TMP/go"
wait "$HOLDER" || fail "the client failed: $(cat "$TEST_TMP/held.out")"

# A load run through the shared port: every request answered.
run_stampede load -c 20 -n 50 -k --output json -u "http://127.0.0.1:$PORT/"
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 1000 ## 20 users x 50 requests
g("requests.failed") == 0
EOF

# A second server on the port fails, workers or not: the parent binds alone before sharing.
STAMPEDE_LIMIT=10 run_stampede second serve --port "$PORT" --workers 2
expect_rc 1
grep -q "cannot listen on 127.0.0.1:$PORT: Address already in use" "$ERR" || fail "second serve: $(cat "$ERR")"
STAMPEDE_LIMIT=10 run_stampede third serve --port "$PORT"
expect_rc 1

# SIGTERM to the parent stops both workers, and the parent waits for them.
kill -TERM "$SERVE_PID"
for _ in $(seq 100); do
  kill -0 "$SERVE_PID" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$SERVE_PID" 2>/dev/null && fail "serve still runs 10 s after SIGTERM"
set +e
wait "$SERVE_PID"
RC=$?
set -e
assert_eq 0 "$RC" "serve's exit status after SIGTERM"
for w in "${WORKERS[@]}"; do
  kill -0 "$w" 2>/dev/null && fail "worker $w outlived its parent"
done

# A worker that dies takes the others down too, and serve says so (exit 1).
"$STAMPEDE" serve --port 0 --workers 3 --threads 1 >"$TEST_TMP/serve2.out" 2>"$TEST_TMP/serve2.err" &
SERVE_PID=$!
_PIDS+=("$SERVE_PID")
wait_for_file "$TEST_TMP/serve2.out" "$SERVE_PID" || fail "serve did not start: $(head -c 1000 "$TEST_TMP/serve2.err")"
mapfile -t WORKERS < <(pgrep -P "$SERVE_PID")
assert_eq 3 "${#WORKERS[@]}" "worker processes of $SERVE_PID"
kill -KILL "${WORKERS[1]}"
set +e
timeout 15 tail --pid="$SERVE_PID" -f /dev/null
wait "$SERVE_PID"
RC=$?
set -e
assert_eq 1 "$RC" "serve's exit status once a worker was killed"
grep -q "worker ${WORKERS[1]} was killed by signal 9; stopping the others" "$TEST_TMP/serve2.err" ||
  fail "serve did not name the dead worker: $(cat "$TEST_TMP/serve2.err")"
for w in "${WORKERS[@]}"; do
  kill -0 "$w" 2>/dev/null && fail "worker $w outlived the failed serve"
done
pass
