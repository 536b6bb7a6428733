#!/usr/bin/env bash
# Held HTTP/2 connections (-http2 --hold [S] --ping S): against nghttpd (h2c and TLS) they stay
# open for the hold (ss sees them), answer PINGs and end with our GOAWAY; Ctrl-C ends a hold
# without a time at once; against h2_fault_server.py a server that never ACKs a PING loses each
# connection as a timeout after two intervals, and a server GOAWAY or close during the hold is
# counted as closed by the server (after its SETTINGS and PING are answered). HTTP/1.1 has nothing to hold: a usage error, and a TLS server
# picking it by ALPN is not held.
source "$(dirname "$0")/lib.sh" "$@"
command -v nghttpd >/dev/null || fail "'nghttpd' is not installed (apt-get install nghttp2-server)"
command -v ss >/dev/null || fail "'ss' is not installed (apt-get install iproute2)"

STAMPEDE_LIMIT=30 # a hung run is killed after 30 s; each should take under 5
mkdir -p "$TEST_TMP/htdocs"
printf 'held\n' >"$TEST_TMP/htdocs/file.txt"
make_cert "$TEST_TMP"

# established PORT: stampede's ESTABLISHED connections to 127.0.0.1:PORT now.
established() {
  ss -Htn state established "( dport = :$1 )" | wc -l
}

# frames LOG PATTERN: how many lines of nghttpd's frame log match PATTERN, once it settled.
frames() {
  await_lines "$1" "$2" 0
}

# goodbyes LOG [N=0]: how many GOAWAY(NO_ERROR) frames nghttpd read (it logs the code on the next
# line), once N have been (a connection's last frame: what came before it is logged too).
goodbyes() {
  await_lines "$1" 'error_code=NO_ERROR' "${2:-0}" >/dev/null
  grep -A1 -F 'recv GOAWAY frame' "$1" | grep -c 'error_code=NO_ERROR' || true
}

start_nghttpd h2c --no-tls
H2C_PORT=$H2_PORT
start_nghttpd h2tls --tls
H2TLS_PORT=$H2_PORT

FAULT_SERVER=$(dirname "$(realpath "$0")")/h2_fault_server.py
PORTS=$TEST_TMP/h2_faults.ports FAULT_LOG=$TEST_TMP/h2_faults.log
: >"$FAULT_LOG"
"$PYTHON" "$FAULT_SERVER" "$PORTS" "$FAULT_LOG" 120 2>"$TEST_TMP/h2_faults.stderr" &
FAULT_PID=$!
_PIDS+=("$FAULT_PID")
_watch "$FAULT_PID"
wait_for_file "$PORTS" "$FAULT_PID" || fail "the HTTP/2 fault server did not start: $(head -c 1000 "$TEST_TMP/h2_faults.stderr")"
fault_port() { awk -v f="$1" '$1 == f { print $2 }' "$PORTS"; }

# 200 users, 2 requests each, then a 2 s hold pinged every 0.5 s: while held ss sees all 200
# connections; nghttpd answers the PINGs (no connection lost) and reads one GOAWAY(NO_ERROR) per
# connection at the end. No -k: --hold keeps each user's connection for its requests.
case_held() {
  local held
  start_background held -c 200 -n 2 -http2 --hold 2 --ping 0.5 -u "http://127.0.0.1:$H2C_PORT/file.txt" --output json
  # Each connection is held 2 s after its requests: all 200 are open together at some point.
  for _ in $(seq 200); do
    held=$(established "$H2C_PORT")
    ((held == 200)) || ! kill -0 "$PID" 2>/dev/null && break
    sleep 0.05
  done
  wait_background 20
  expect_rc 0
  assert_eq 200 "$held" "held: ESTABLISHED connections to nghttpd during the hold"
  json_check "$OUT" <<'EOF'
g("requests.total") == 400 and g("requests.succeeded") == 400 and g("status_codes") == {"200": 400}
g("connections.opened") == 200 and g("connections.open_at_end") == 0 ## opened = open at end + ended
g("connections.failed") == 0 and g("connections.closed_by_server") == 0 ## nghttpd ACKs our PINGs
g("keep_alive") is True ## --hold implies -k for HTTP/2
max(s["open"] for s in g("connections.per_second")) == 200 ## a row saw all 200 open
2.0 <= g("duration_s") < 5 ## the hold lasts 2 s
EOF
  assert_eq 200 "$(goodbyes "$TEST_TMP/h2c.log" 200)" "held: GOAWAY(NO_ERROR) nghttpd read"
  assert_eq 200 "$(frames "$TEST_TMP/h2c.log" 'recv SETTINGS frame <length=[1-9]')" "held: connections nghttpd saw"
  assert_le 400 "$(frames "$TEST_TMP/h2c.log" 'recv PING frame <length=8, flags=0x00')" "held: PINGs nghttpd read (2 s of 0.5 s silences: at least 2 each)"
  (($(established "$H2C_PORT") == 0)) || fail "held: connections still open after the run"
}

# The same over TLS (ALPN h2): the PINGs and the GOAWAY go out beside the pending read.
case_held_tls() {
  run_stampede held_tls -c 20 -n 1 -http2 --hold 1 --ping 0.3 --insecure -u "https://127.0.0.1:$H2TLS_PORT/file.txt" --output json
  expect_rc 0
  json_check "$OUT" <<'EOF'
g("requests.succeeded") == 20 and g("connections.opened") == 20
g("connections.open_at_end") == 0 and g("connections.failed") == 0 and g("connections.closed_by_server") == 0
EOF
  assert_eq 20 "$(goodbyes "$TEST_TMP/h2tls.log" 20)" "held_tls: GOAWAY(NO_ERROR) nghttpd read"
  assert_le 40 "$(frames "$TEST_TMP/h2tls.log" 'recv PING frame <length=8, flags=0x00')" "held_tls: PINGs nghttpd read"
}

# --hold without a time lasts until Ctrl-C, which ends every hold with GOAWAY at once; the text
# report's Connections line adds up.
case_hold_sigint() {
  local before
  before=$(goodbyes "$TEST_TMP/h2c.log")
  interrupt_run hold_sigint 1 -c 50 -n 1 -k -http2 --hold -u "http://127.0.0.1:$H2C_PORT/file.txt"
  expect_rc 0
  took 0 3 "a SIGINT at 1 s"
  grep -q "^Connections: *50 opened, 0 closed by the server, 0 failed, 0 open at the end" "$OUT" ||
    fail "hold_sigint: no Connections line adding up: $(grep Connections "$OUT")"
  grep -q "open│+open/s│" "$OUT" || fail "hold_sigint: the live table has no connection columns"
  assert_eq $((before + 50)) "$(goodbyes "$TEST_TMP/h2c.log" $((before + 50)))" "hold_sigint: GOAWAYs nghttpd read"
}

# A server that never answers a PING: with --ping 0.5 each held connection is PINGed once after
# 0.5 s of silence and lost as a timeout 0.5 s later, long before the 5 s hold ends.
case_no_ping_ack() {
  run_stampede no_ping_ack -c 20 -n 2 -http2 --hold 5 --ping 0.5 -u "http://127.0.0.1:$(fault_port no_ping_ack)/" --output json
  expect_rc 0
  took 1 2.5 "about 1 s, not the 5 s hold"
  json_check "$OUT" <<'EOF'
g("requests.total") == 40 and g("requests.succeeded") == 40 ## the requests before the hold were answered
g("connections.opened") == 20 and g("connections.open_at_end") == 0
g("connections.failed") == 20 and g("connections.failed_by_kind") == {"timeout": 20}
g("connections.closed_by_server") == 0
EOF
  assert_eq 20 "$(await_lines "$FAULT_LOG" '^no_ping_ack ping$' 20)" "no_ping_ack: PINGs the server read (one per connection)"
  grep -q "first timeout failure: a held connection's PING had no ACK within --ping's interval" "$ERR" ||
    fail "no_ping_ack: stderr does not say why: $(head -c 1000 "$ERR")"
}

# A server ending a held connection, with GOAWAY or by closing it, after 0.5 s idle: each
# connection counts as closed by the server, at once, not at the end of the hold. ping_idle first
# asks new SETTINGS and a PING of the held connection, which answers both (H2Idle, no session);
# its 200 users on one thread have reads of different frames (a PING, a GOAWAY) complete
# together, which a read buffer shared by the thread's held connections mixed up (a GOAWAY
# missed: 2-4 connections in 200 held to the end).
case_server_ends() {
  local fault users
  declare -A said=([goaway_idle]="first closed failure: the server sent GOAWAY on a held HTTP/2 connection"
    [close_idle]="first closed failure: End of file (the server closed a held HTTP/2 connection)"
    [ping_idle]="first closed failure: the server sent GOAWAY on a held HTTP/2 connection")
  for fault in goaway_idle close_idle ping_idle; do
    users=10
    [[ $fault == ping_idle ]] && users=200
    run_stampede "server_ends_$fault" -c "$users" -n 2 -cpuNumber 1 -http2 --hold 5 \
      -u "http://127.0.0.1:$(fault_port "$fault")/" --output json
    expect_rc 0
    took 0 2.5 "about 0.5 s, not the 5 s hold"
    json_check "$OUT" <<EOF
g("requests.succeeded") == 2 * $users and g("connections.opened") == $users
g("connections.closed_by_server") == $users and g("connections.failed") == 0 and g("connections.open_at_end") == 0
EOF
    assert_eq $((2 * users)) "$(grep -cx "$fault" "$FAULT_LOG" || true)" "$fault: requests the server read"
    grep -qF "${said[$fault]}" "$ERR" || fail "$fault: stderr does not say how: $(head -c 1000 "$ERR")"
  done
  assert_eq 200 "$(grep -cx "ping_idle ack" "$FAULT_LOG" || true)" "ping_idle: PING ACKs the server read"
  assert_eq 200 "$(grep -cx "ping_idle settings ack" "$FAULT_LOG" || true)" "ping_idle: SETTINGS ACKs the server read"
}

# A TLS server that picks HTTP/1.1 by ALPN (nginx without http2): the requests go over HTTP/1.1,
# the warning says its connections are not held, and the run does not wait for a hold.
case_fallback() {
  start_nginx --tls "$TEST_TMP/nginx"
  run_stampede fallback -c 2 -n 2 -http2 --hold 3 --insecure -u "$HTTPS_URL/?run=fallback" --output json
  expect_rc 0
  json_check "$OUT" <<'EOF'
g("requests.succeeded") == 4 and g("status_codes") == {"200": 4}
"open_at_end" not in g("connections") and g("duration_s") < 2 ## nothing held
EOF
  grep -q "did not select HTTP/2 by ALPN: .*, and its connections are not held" "$ERR" ||
    fail "fallback: no warning: $(head -c 1000 "$ERR")"
  assert_eq 4 "$(count_requests "$ACCESS_LOG" '"GET /?run=fallback HTTP/1.1"')" "fallback: HTTP/1.1 requests nginx saw"
}

# HTTP/1.1 has no connection to hold; -http2 --ping without --hold pings nothing.
case_usage() {
  run_stampede usage_hold -c 1 -n 1 --hold 1 -u "http://127.0.0.1:$H2C_PORT/"
  expect_rc 2
  grep -q -- "--hold needs a ws:// or wss:// URL, or -http2" "$ERR" || fail "usage_hold: $(head -c 500 "$ERR")"
  run_stampede usage_ping -c 1 -n 1 -http2 --ping 1 -u "http://127.0.0.1:$H2C_PORT/"
  expect_rc 2
  grep -q -- "--ping with -http2 needs --hold" "$ERR" || fail "usage_ping: $(head -c 500 "$ERR")"
}

run_cases "${H2HOLD_CASES:-}" held held_tls hold_sigint no_ping_ack server_ends fallback usage
pass
