#!/usr/bin/env bash
# A misbehaving server (fault_server.py): each fault is one exact failure kind, counts add up, no hang.
# Every case runs (in a subshell) even when an earlier one failed; the script fails at the end
# listing the failed cases. FAULT_CASES='reset stall' runs only the cases whose names start so.
# shellcheck disable=SC2317  # the case_* functions are called indirectly, by name
source "$(dirname "$0")/lib.sh" "$@"

FAULT_SERVER=$(dirname "$(realpath "$0")")/fault_server.py
# FAULT_TLS=1 (tls_fault_test.sh): the same faults over HTTPS. The server wraps each connection in
# TLS (a close is a TCP close without close_notify, as many servers' are), stampede goes --insecure.
SCHEME=http TLS_ARGS=() SERVER_TLS=()
if [[ ${FAULT_TLS:-0} == 1 ]]; then
  make_cert "$TEST_TMP"
  SCHEME=https TLS_ARGS=(--insecure) SERVER_TLS=(--tls "$TEST_TMP/cert.pem" "$TEST_TMP/key.pem")
fi
C=2 N=5  # users x requests for the fast cases
# Each run takes under 3 s; a hung one is killed after 20 s (run_stampede's bound), not 60.
STAMPEDE_LIMIT=${STAMPEDE_LIMIT:-20}

# start_fault_server NAME [--to-be-killed]: starts fault_server.py (stops itself after 300 s, ctest's
# bound on the script: the servers started first serve the last cases, and a sanitized build on a
# busy machine has taken 96 s to reach them); sets
# FAULT_PORT, FAULT_LOG (one line per request head it read: "<connection> <method> <target>"),
# FAULT_PID. --to-be-killed: leave it out of bash's job table, so its SIGKILL is not announced.
start_fault_server() {
  start_py_server ${2:+--disown} "$1" "$PYTHON" "$FAULT_SERVER" 300 "${SERVER_TLS[@]}"
  FAULT_PID=$SERVER_PID FAULT_PORT=$SERVER_PORT FAULT_LOG=$SERVER_LOG
}

# seen TARGET [LOG]: requests the server read for exactly TARGET ("/reset?run=x").
seen() { awk -v t="$1" '$3 == t { n++ } END { print n + 0 }' "${2:-$FAULT_LOG}"; }

# seen_connections TARGET [LOG]: distinct server connections that carried TARGET.
seen_connections() { awk -v t="$1" '$3 == t { c[$1] = 1 } END { print length(c) }' "${2:-$FAULT_LOG}"; }

# check_finished BOUND: exit 0 (a crash is >= 128: a signal) within BOUND seconds.
check_finished() {
  ((RC < 128)) || fail "$_LAST_RUN: stampede crashed (exit $RC = signal $((RC - 128))); stderr: $(tail -c 2000 "$ERR")"
  expect_rc 0
  # The wall clock: the write case reads its 16 MB bodies before the run (8-9 s under ASan).
  awk -v t="$ELAPSED" -v b="$1" 'BEGIN { exit !(t < b) }' || fail "$_LAST_RUN: took ${ELAPSED}s, bound ${1}s"
}

# expect_kind NAME PATH KIND C N BOUND [ARGS...]: runs stampede -c C -n N on PATH?run=NAME and
# asserts that all C*N requests failed with KIND (or succeeded, KIND=success), that the report adds
# up, and that the server read exactly C*N requests for it.
expect_kind() {
  local name=$1 path=$2 kind=$3 c=$4 n=$5 bound=$6 total
  shift 6
  total=$((c * n))
  run_stampede "$name" -c "$c" -n "$n" "$@" "${TLS_ARGS[@]}" -u "$SCHEME://127.0.0.1:$FAULT_PORT$path?run=$name" \
    --output json
  check_finished "$bound"
  if [[ $kind == success ]]; then
    json_check "$OUT" <<EOF
g("requests.total") == $total ## -c $c -n $n
g("requests.succeeded") == $total and g("requests.failed") == 0 ## $path is a valid response
g("requests.abandoned") == 0
$(only_errors none 0)
g("status_codes") == {"200": $total}
EOF
  else
    json_check "$OUT" <<EOF
g("requests.total") == $total ## -c $c -n $n
g("requests.failed") == $total and g("requests.succeeded") == 0 ## $path never gives a valid response
g("requests.abandoned") == 0
$(only_errors "$kind" "$total") ## $path is a $kind failure
EOF
  fi
  assert_eq "$total" "$(seen "$path?run=$name")" "$name: requests the server read"
}

# ---- the cases; each runs in a subshell (see the end) ----

case_ok() {
  expect_kind ok /ok success "$C" "$N" 10
  json_assert "$OUT" "g('connections.opened') == $((C * N))" "ok: one connection per request without -k"
  assert_eq $((C * N)) "$(seen_connections "/ok?run=ok")" "ok: server connections without -k"
  expect_kind ok_k /ok success "$C" "$N" 10 -k
  local conns
  conns=$(seen_connections "/ok?run=ok_k")
  assert_le "$conns" "$C" "ok_k: server connections with -k"
  json_assert "$OUT" "g('connections.opened') == $conns" "ok_k: connections.opened vs the server's $conns"
}

# both NAME PATH KIND: expect_kind with -c C -n N, without -k (NAME) and with it (NAME_k); the
# second runs even when the first failed.
both() {
  local without=0 with=0
  (expect_kind "$1" "$2" "$3" "$C" "$N" 10) || without=1
  (expect_kind "$1_k" "$2" "$3" "$C" "$N" 10 -k) || with=1
  ((without + with == 0)) || fail "$2: $( ((without)) && echo "$1 failed ")$( ((with)) && echo "$1_k failed")"
  OUT=$TEST_TMP/$1_k.out  # for the caller's further checks on the -k run
}

# reset, close, partial: the connection ends before a whole response: `read`.
case_reset() { both reset /reset read; }
case_close() { both close /close read; }
case_partial() { both partial /partial read; }

# garbage, bigheader, badlength: bytes that are not a valid response: `protocol`.
case_garbage() { both garbage /garbage protocol; }
case_bigheader() { both bigheader /bigheader protocol; }
case_badlength() { both badlength /badlength protocol; }

# stall, slowbody: -t 0.5 ends each request after 0.5 s: `timeout`; 2 sequential requests per user
# take about 1 s. /slowbody sends a byte every 200 ms: -t bounds the whole request, not idleness.
stall_like() {
  local name=$1 path=$2
  shift 2
  expect_kind "$name" "$path" timeout 2 2 10 -t 0.5 "$@"
  awk -v t="$ELAPSED" 'BEGIN { exit !(t >= 0.95) }' || fail "$name: 2 sequential 0.5 s timeouts took only ${ELAPSED}s"
}
case_stall() { stall_like stall /stall && stall_like stall_k /stall -k; }
case_slowbody() { stall_like slowbody /slowbody && stall_like slowbody_k /slowbody -k; }

# -timeout ends a run against a stalled server; the in-flight requests are abandoned.
case_timelimit() {
  run_stampede timelimit -c 2 -n 100 -t 30 -timeout 1 "${TLS_ARGS[@]}" \
    -u "$SCHEME://127.0.0.1:$FAULT_PORT/stall?run=timelimit" --output json
  check_finished 10
  json_check "$OUT" <<'EOF'
g("stop_reason") == "time_limit"
g("requests.total") == 0 and g("requests.abandoned") == 2 ## one stalled request per user, none completed
EOF
  assert_eq 2 "$(seen "/stall?run=timelimit")" "timelimit: requests the server read"
}

# chunked and EOF-delimited bodies are valid responses.
case_chunked() {
  both chunked /chunked success
  json_assert "$OUT" "g('connections.opened') <= $C and g('bytes.body_received') == $((C * N * 11))" \
    "chunked_k: connections reused, 11 body bytes per response"
}
case_noclen() {
  both noclen /noclen success
  json_assert "$OUT" "g('connections.opened') == $((C * N))" "noclen_k: Connection: close means a new connection per request"
}

# A keep-alive server that closes each connection right after its response: with -k the next
# request finds the connection closed before it reached the server, and goes on a new one.
case_idleclose() {
  expect_kind idleclose_k /idleclose success "$C" "$N" 10 -k
  json_assert "$OUT" "g('connections.opened') == $((C * N))" "idleclose_k: one connection per request"
}

# A server that reads a request on a reused connection and then resets it: stampede cannot tell
# this from an idle close racing the request, so it retries once on a new connection (the
# retried request succeeds there). Per user: 1 + 2 (n - 1) requests reach the server.
case_okthenreset() {
  local name=okthenreset_k
  run_stampede "$name" -k -c "$C" -n "$N" "${TLS_ARGS[@]}" \
    -u "$SCHEME://127.0.0.1:$FAULT_PORT/okthenreset?run=$name" --output json
  check_finished 10
  json_check "$OUT" <<EOF
g("requests.total") == $((C * N)) and g("requests.succeeded") == $((C * N))
g("connections.opened") == $((C * N)) ## per user: the first connection, then one new one per retried request
EOF
  assert_eq $((C * (2 * N - 1))) "$(seen "/okthenreset?run=$name")" "$name: at most one retry per request"
}

# Unsolicited 1xx (103 Early Hints) before the final 200: a client must skip interim responses
# (RFC 9110 section 15.2), so the 200 is the response and every request succeeds.
case_interim() { both interim /interim success; }

# The same with a real server: nginx answers "Expect: 100-continue" with "100 Continue", then 200.
case_expect() {
  local k name bad=()
  for k in "" -k; do
    name=expect${k/-/_}
    (
      run_stampede "$name" -c "$C" -n "$N" ${k:+"$k"} -data '{"a":1}' -H 'Expect: 100-continue' \
        -u "$HTTP_URL/post?run=$name" --output json
      check_finished 10
      json_check "$OUT" <<EOF
g("requests.total") == $((C * N))
g("requests.succeeded") == $((C * N)) and g("requests.failed") == 0 ## nginx answered 200 every time
g("status_codes") == {"200": $((C * N))} ## the interim 100 is not the response
EOF
      assert_eq $((C * N)) "$(count_requests "$ACCESS_LOG" "200 \"POST /post?run=$name ")" "$name: nginx 200s"
    ) || bad+=("$name")
  done
  ((${#bad[@]} == 0)) || fail "Expect: 100-continue: ${bad[*]} failed"
}

# A big POST body the server resets while it is being sent: `write`. (16 MiB: more than loopback
# socket buffers hold, so the reset always comes while stampede is still writing.)
case_write() {
  local body=$TEST_TMP/body.bin
  head -c $((16 * 1024 * 1024)) /dev/zero >"$body"
  # 25 s: four 16 MB bodies take 0.3 s in a release build, but 8-10 s over TLS in CI's ASan
  # build, and 15-18 s there beside a compile; a stalled write would wait out -t's 30 s.
  expect_kind write /reset write 2 2 25 -data "@$body"
  expect_kind write_k /reset write 2 2 25 -k -data "@$body"
}

# The server is SIGKILLed mid-run: the requests in flight fail (read), later ones are refused
# (connect); every request is still counted once.
killed_run() {
  local name=$1 pid=$2 log=$3 port=$4 i total=$((2 * 100)) t0 t1
  shift 4
  _LAST_RUN=$name
  OUT=$TEST_TMP/$name.out
  ERR=$TEST_TMP/$name.err
  t0=$(date +%s%N)
  timeout -k 5 "$STAMPEDE_LIMIT" "$STAMPEDE" -c 2 -n 100 "$@" "${TLS_ARGS[@]}" \
    -u "$SCHEME://127.0.0.1:$port/delay?run=$name" --output json \
    >"$OUT" 2>"$ERR" &
  local spid=$!
  for i in $(seq 200); do  # at most 10 s for 20 requests of 20 ms
    (($(seen "/delay?run=$name" "$log") >= 20)) && break
    kill -0 "$spid" 2>/dev/null || break  # stampede ended early: reported below
    sleep 0.05
  done
  kill -KILL "$pid"
  local before
  before=$(seen "/delay?run=$name" "$log")
  set +e
  wait "$spid"
  RC=$?
  set -e
  t1=$(date +%s%N)
  ELAPSED=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  log "$name: server killed after $before requests; stampede -> exit $RC in ${ELAPSED}s"
  ((RC != 124 && RC != 137)) || fail "$name: stampede did not finish within $STAMPEDE_LIMIT s"
  check_finished 20
  ((before >= 20 && before < total)) || fail "$name: the server read $before requests before it was killed"
  local logged cut=''
  logged=$(seen "/delay?run=$name" "$log")
  # Over TLS a connection the kill caught in its handshake fails there, as a tls failure.
  [[ $SCHEME == http ]] || cut=' + g("errors.tls")'
  json_check "$OUT" <<EOF
g("requests.total") == $total and g("requests.abandoned") == 0
g("requests.succeeded") + g("requests.failed") == g("requests.total")
g("requests.failed") == g("errors.connect") + g("errors.read") + g("errors.write")$cut ## only network failures
g("errors.connect") >= 1 ## connections refused after the kill
$logged - 2 <= g("requests.succeeded") <= $logged ## answered = read by the server, but for one in flight per user
g("status_codes") == {"200": g("requests.succeeded")}
EOF
}
case_killed() { killed_run killed "$KILL_PID" "$KILL_LOG" "$KILL_PORT"; }
case_killed_k() { killed_run killed_k "$KILL_K_PID" "$KILL_K_LOG" "$KILL_K_PORT" -k; }

# ---- run ----

start_fault_server killed --to-be-killed
KILL_PID=$FAULT_PID KILL_LOG=$FAULT_LOG KILL_PORT=$FAULT_PORT
start_fault_server killed_k --to-be-killed
KILL_K_PID=$FAULT_PID KILL_K_LOG=$FAULT_LOG KILL_K_PORT=$FAULT_PORT
start_fault_server faults
CASES=(ok reset close partial garbage bigheader badlength stall slowbody timelimit chunked noclen
  idleclose okthenreset interim write killed killed_k)
if [[ $SCHEME == http ]]; then  # nginx's 100 Continue: a plain-HTTP case (/interim is TLS's)
  start_nginx "$TEST_TMP/nginx" 'location = /post { return 200 "ok\n"; }'
  CASES+=(expect)
fi
run_cases "${FAULT_CASES:-}" "${CASES[@]}"
pass
