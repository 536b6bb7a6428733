#!/usr/bin/env bash
# A misbehaving HTTP/2 server (h2_fault_server.py, h2c, and with -m over TLS too): each fault is
# one exact failure kind, the same kind HTTP/1.1 gives for the like fault; every request is counted
# and read by the server; nothing hangs or crashes.
source "$(dirname "$0")/lib.sh" "$@"

FAULT_SERVER=$(dirname "$(realpath "$0")")/h2_fault_server.py
C=2 N=3
STAMPEDE_LIMIT=20 # a hung run is killed after 20 s; each should take under 5

LOG=$TEST_TMP/h2_faults.log
: >"$LOG"

# start_fault_server NAME [CERT KEY]: the fault server (over TLS with CERT and KEY), logging to
# LOG; sets PORTS to its port file.
start_fault_server() {
  PORTS=$TEST_TMP/$1.ports
  "$PYTHON" "$FAULT_SERVER" "$PORTS" "$LOG" 120 "${@:2}" 2>"$TEST_TMP/$1.stderr" &
  local pid=$!
  _PIDS+=("$pid")
  _watch "$pid"
  wait_for_file "$PORTS" "$pid" || fail "the HTTP/2 fault server did not start: $(head -c 1000 "$TEST_TMP/$1.stderr")"
}
start_fault_server h2_faults
SCHEME=http

# expect_fault FAULT KIND BOUND [FLAGS...]: -c C -n N -k -http2 -t 1 (and FLAGS) against FAULT's
# port (SCHEME://): every request fails as KIND (or succeeds, KIND=success) within BOUND seconds,
# and the server read each one (unless the users share a connection: -m).
expect_fault() {
  local fault=$1 kind=$2 bound=$3 port total=$((C * N)) shared=0
  shift 3
  [[ $* == *"-m "* ]] && shared=1
  port=$(awk -v f="$fault" '$1 == f { print $2 }' "$PORTS")
  run_stampede "$fault" -c "$C" -n "$N" -k -http2 -t 1 "$@" -u "$SCHEME://127.0.0.1:$port/" --output json
  ((RC < 128)) || fail "$fault: stampede crashed (exit $RC); stderr: $(tail -c 2000 "$ERR")"
  expect_rc 0
  took 0 "$bound" "its bound"
  if [[ $kind == success ]]; then
    json_check "$OUT" <<EOF
g("requests.total") == $total and g("requests.succeeded") == $total and g("requests.failed") == 0
g("status_codes") == {"200": $total} and g("connections.opened") == $((shared ? 1 : C)) ## kept
EOF
  else
    json_check "$OUT" <<EOF
g("requests.total") == $total and g("requests.failed") == $total and g("requests.abandoned") == 0
g("errors")["$kind"] == $total and sum(g("errors").values()) == $total ## every one a $kind failure
EOF
  fi
  # On a shared connection a fault cuts off its neighbours before the server read them (this
  # server stops reading a connection once it stalled a stream).
  ((shared)) && [[ $kind != success ]] && return 0
  assert_eq "$total" "$(grep -cx "$fault" "$LOG" || true)" "$fault: requests the server read"
  : >"$LOG"
}

expect_fault ok success 5
expect_fault rst_stream protocol 5    # RST_STREAM INTERNAL_ERROR
expect_fault goaway closed 5          # GOAWAY before the stream: refused, on a new connection too
expect_fault bad_frame protocol 5     # a frame too large: stampede ends the connection itself
grep -q "the server broke HTTP/2 and stampede ended the connection: FRAME_SIZE_ERROR" "$ERR" ||
  fail "bad_frame: stderr does not name the error: $(head -c 1000 "$ERR")"
expect_fault reset read 5             # TCP RST, as /reset over HTTP/1.1
expect_fault short_body read 5        # FIN 10 bytes into a 100-byte body, as /partial
expect_fault stall timeout 10         # HEADERS, then nothing: -t 1 ends each exchange

# The same faults with the users sharing one connection (-m 1): the same kinds, and a stream
# the server refuses or loses with its connection is that request's failure, never resent.
for fault_kind in "ok success" "rst_stream protocol" "goaway closed" "bad_frame protocol" \
  "reset read" "short_body read" "stall timeout"; do
  read -r fault kind <<<"$fault_kind"
  expect_fault "$fault" "$kind" 10 -m 1
done

# Ctrl-C while three users sharing a connection wait for replies that never come: each stream
# is reset (CANCEL), the connection ends with GOAWAY NO_ERROR, the run stops at once, and the
# three requests are abandoned, not counted.
expect_interrupted() {
  local port
  : >"$LOG"
  port=$(awk '$1 == "silent" { print $2 }' "$PORTS")
  interrupt_run "silent-$SCHEME" 1 -c 3 -n 1 -http2 -m 1 -timeout 30 "$@" -u "$SCHEME://127.0.0.1:$port/" --output json
  expect_rc 0
  took 0 4 "a SIGINT at 1 s"
  json_check "$OUT" <<'EOF'
g("requests.total") == 0 and g("requests.abandoned") == 3 and g("stop_reason") == "interrupted"
EOF
  assert_eq 3 "$(grep -cx "silent" "$LOG" || true)" "silent: requests the server read"
  assert_eq 3 "$(grep -cx "silent rst_stream 8" "$LOG" || true)" "silent: RST_STREAM CANCEL the server read"
  assert_eq 1 "$(grep -cx "silent goaway 0" "$LOG" || true)" "silent: GOAWAY NO_ERROR the server read"
}
expect_interrupted

# -m over TLS (OpenSSL driven on the socket, TlsSocket): the same faults, the same kinds. The
# server closes without close_notify, as one that dies does: its FIN mid-stream is a `read`
# failure (stream_truncated), its RST one too, as over h2c.
make_cert "$TEST_TMP"
start_fault_server h2_faults_tls "$TEST_TMP/cert.pem" "$TEST_TMP/key.pem"
SCHEME=https
for fault_kind in "ok success" "rst_stream protocol" "goaway closed" "bad_frame protocol" \
  "reset read" "short_body read" "stall timeout"; do
  read -r fault kind <<<"$fault_kind"
  expect_fault "$fault" "$kind" 10 -m 1 --insecure
done
expect_interrupted --insecure
pass
