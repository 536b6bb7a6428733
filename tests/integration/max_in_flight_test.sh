#!/usr/bin/env bash
# `stampede serve --max-in-flight 4`: a server of known capacity. With /delay/50, 4 users are all
# served; 8 users get 200s and 503s adding up to every request, never more 200s than 4 at a time
# allow, over HTTP/1.1 and HTTP/2, plain and TLS, on connections the 503s keep open. The counts
# come from stampede's JSON report; a bad --max-in-flight is a usage error.
# Every case runs (in a subshell) even when an earlier one failed; MAX_IN_FLIGHT_CASES='h2c tls'
# runs only the cases whose names start so.
# shellcheck disable=SC2317  # the case_* functions are called indirectly, by name
source "$(dirname "$0")/lib.sh" "$@"
STAMPEDE_LIMIT=${STAMPEDE_LIMIT:-30}

LIMIT=4
DELAY_MS=50
PER_USER=10
HELLO=15 # bytes of "hello stampede\n", what /delay answers
BUSY=65  # bytes of the 503's body (target_server/routes.hpp busy_body)

start_serve --threads 2 --tls-port 0 --max-in-flight "$LIMIT"
BANNER=$(head -n 1 "$TEST_TMP/serve.out")
TLS_PORT=$(sed -nE 's|.* and https://127\.0\.0\.1:([0-9]+)/.*|\1|p' <<<"$BANNER")
[[ -n $TLS_PORT ]] || fail "no TLS port in serve's first line: $BANNER"
wait_for_port "$TLS_PORT" 10 "$SERVE_PID" || fail "serve does not accept on :$TLS_PORT"
[[ $BANNER == *"(2 threads, at most $LIMIT requests in flight; Ctrl-C stops)" ]] || fail "banner: $BANNER"
H=http://127.0.0.1:$SERVE_PORT
S=https://127.0.0.1:$TLS_PORT

# within NAME PROTOCOL ARGS...: $LIMIT users back to back on /delay: never more than the limit in
# flight, so every request is a 200, on one connection a user (PROTOCOL: what they spoke).
within() {
  local name=$1 protocol=$2 total=$((LIMIT * PER_USER))
  shift 2
  run_stampede "$name" -c "$LIMIT" -n "$PER_USER" -k "$@" --output json
  expect_all_ok "$total" "$LIMIT" "$protocol" $((total * HELLO))
}

# beyond NAME PROTOCOL ARGS...: twice $LIMIT users: the server refuses what passes the limit with
# 503 (failed by the default -code 200, as errors.verify), serves the rest, and keeps every
# connection (one a user). At most $LIMIT at a time, each holding its place $DELAY_MS ms: no more
# 200s than $LIMIT per delay over the run, plus the $LIMIT under way at its start.
beyond() {
  local name=$1 protocol=$2 users=$((2 * LIMIT))
  local total=$((users * PER_USER))
  shift 2
  run_stampede "$name" -c "$users" -n "$PER_USER" -k "$@" --output json
  expect_rc 0
  json_check "$OUT" <<EOF
g("requests.total") == $total and g("requests.abandoned") == 0 ## every request answered
set(g("status_codes")) <= {"200", "503"} ## nothing but served and refused
g("status_codes").get("200", 0) + g("status_codes").get("503", 0) == $total
g("status_codes").get("503", 0) > 0 ## past the limit: refusals
g("status_codes").get("200", 0) >= $LIMIT ## the first $LIMIT to arrive are served
g("requests.succeeded") == g("status_codes")["200"]
g("requests.failed") == g("status_codes")["503"] and g("errors.verify") == g("requests.failed")
$(only_errors verify "$total - g('requests.succeeded')")
g("status_codes")["200"] <= $LIMIT * g("duration_s") / ($DELAY_MS / 1000) + $LIMIT ## at most $LIMIT in flight
g("bytes.body_received") == g("status_codes")["200"] * $HELLO + g("status_codes")["503"] * $BUSY ## the busy body, not /status/503's
g("connections.opened") == $users and g("connections.protocols") == {"$protocol": $users} ## 503s keep the connection
g("latency_ms.max") >= $DELAY_MS ## the 200s waited their delay
EOF
  log "$name: $(json_eval "$OUT" 'g("status_codes")') in $(json_eval "$OUT" 'g("duration_s")') s"
}

case_http1() {
  within http1_within http/1.1 -u "$H/delay/$DELAY_MS"
  beyond http1_beyond http/1.1 -u "$H/delay/$DELAY_MS"
}

case_h2c() {
  within h2c_within h2c -http2 -u "$H/delay/$DELAY_MS"
  beyond h2c_beyond h2c -http2 -u "$H/delay/$DELAY_MS"
}

case_tls() {
  within tls_h2_within h2 -http2 --insecure -u "$S/delay/$DELAY_MS"
  beyond tls_h2_beyond h2 -http2 --insecure -u "$S/delay/$DELAY_MS"
  beyond tls_http1_beyond http/1.1 --insecure -u "$S/delay/$DELAY_MS"
}

# Streams of shared HTTP/2 connections count one by one: 8 users on 2 connections.
case_shared_h2() {
  local total=$((2 * LIMIT * PER_USER))
  run_stampede shared_h2 -c $((2 * LIMIT)) -n "$PER_USER" -m 2 -http2 -u "$H/delay/$DELAY_MS" --output json
  expect_rc 0
  json_check "$OUT" <<EOF
g("requests.total") == $total
g("status_codes").get("200", 0) + g("status_codes").get("503", 0) == $total
g("status_codes").get("503", 0) > 0 and g("status_codes").get("200", 0) >= $LIMIT
g("status_codes")["200"] <= $LIMIT * g("duration_s") / ($DELAY_MS / 1000) + $LIMIT
g("connections.opened") == 2
EOF
}

# After every case: no place was lost (a leak would refuse these), nor taken by the refusals.
case_no_leak() {
  within after_all http/1.1 -u "$H/delay/$DELAY_MS"
  within after_all_h2c h2c -http2 -u "$H/delay/$DELAY_MS"
}

# A limit the parser refuses: exit 2, one line on stderr naming the flag, nothing on stdout.
case_usage() {
  local bad
  for bad in -1 100000001 four; do
    STAMPEDE_LIMIT=10 run_stampede "usage_$bad" serve --port 0 --max-in-flight "$bad"
    expect_rc 2
    assert_eq 1 "$(grep -c '' "$ERR")" "--max-in-flight $bad: stderr lines"
    grep -q -- "--max-in-flight" "$ERR" || fail "--max-in-flight $bad: $(cat "$ERR")"
    assert_eq "" "$(cat "$OUT")" "--max-in-flight $bad: stdout"
  done
}

run_cases "${MAX_IN_FLIGHT_CASES:-}" http1 h2c tls shared_h2 no_leak usage
kill -0 "$SERVE_PID" 2>/dev/null || fail "serve died during the cases: $(head -c 1000 "$TEST_TMP/serve.err")"
pass
