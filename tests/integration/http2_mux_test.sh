#!/usr/bin/env bash
# HTTP/2 with -m: the users share N connections (spread over the threads), one stream each at a
# time, against nghttpd (h2c and TLS; SETTINGS_MAX_CONCURRENT_STREAMS 1 and 5, never exceeded)
# and nginx (its access log counts the requests and the connections; GOAWAY after 10 streams:
# the streams it refused are failures of kind `closed`, never resent, and the run goes on); -t
# against stampede serve's /delay resets one stream and leaves its neighbours alone. Over TLS
# (OpenSSL on the socket): large bodies in many records, a certificate refused without
# --insecure, nginx's GOAWAY.
source "$(dirname "$0")/lib.sh" "$@"
command -v nghttpd >/dev/null || fail "'nghttpd' is not installed (apt-get install nghttp2-server)"

FILE_BYTES=1000
mkdir -p "$TEST_TMP/htdocs"
head -c "$FILE_BYTES" /dev/zero | tr '\0' 'x' >"$TEST_TMP/htdocs/file.txt"
make_cert "$TEST_TMP"

# nghttpd_saw NAME WHAT [N=0]: lines of nghttpd's frame log NAME.log matching the regex WHAT, once
# N do and the log has settled.
nghttpd_saw() {
  await_lines "$TEST_TMP/$1.log" "$2" "${3:-0}"
}

# check_mux NAME C N M MAX [PROTOCOL]: C users × N requests all succeeded on M connections, with at most
# MAX streams open at once on one (and exactly MAX at some point), each connection ended by our
# GOAWAY and reported as speaking PROTOCOL (default h2c).
check_mux() {
  local name=$1 c=$2 n=$3 m=$4 max=$5 protocol=${6:-h2c}
  expect_rc 0
  json_check "$OUT" <<PYEOF
g("requests.succeeded") == $c * $n and g("requests.failed") == 0
g("status_codes") == {"200": $c * $n}
g("connections.opened") == $m and g("connections.protocols") == {"$protocol": $m}
g("connections.shared_streams.streams") == $c * $n
g("connections.shared_streams.open_max") == $max
1 <= g("connections.shared_streams.open_mean") <= $max
g("bytes.body_received") == $c * $n * $FILE_BYTES
"queueing" in g("phases_ms")
PYEOF
  # The last user of each connection ends it with GOAWAY(NO_ERROR): nghttpd has logged the rest.
  assert_eq "$m" "$(nghttpd_saw "$name" 'error_code=NO_ERROR' "$m")" "$name: GOAWAYs that ended a connection"
  assert_eq $((c * n)) "$(nghttpd_saw "$name" ':path: /file.txt')" "$name: requests nghttpd saw"
  assert_eq "$m" "$(nghttpd_saw "$name" 'recv SETTINGS frame <length=[1-9]')" "$name: connections nghttpd saw"
  assert_eq 0 "$(nghttpd_saw "$name" 'RST_STREAM')" "$name: streams reset"
}

case_h2c() {  # 100 users on 4 connections, 2 threads: 25 users a connection, nghttpd's 100 streams
  start_nghttpd h2c --no-tls
  run_stampede h2c -c 100 -n 10 -m 4 -cpuNumber 2 -http2 -u "http://127.0.0.1:$H2_PORT/file.txt" --output json
  check_mux h2c 100 10 4 25
  json_assert "$OUT" 'g("threads") == 2'
}

case_tls() {  # ALPN h2; --connections is -m's long form
  start_nghttpd tls --tls
  run_stampede tls -c 20 -n 10 --connections 2 -http2 --insecure -u "https://127.0.0.1:$H2_PORT/file.txt" --output json
  check_mux tls 20 10 2 10 h2
}

case_tls_big() {  # 200 KB bodies: many TLS records a read, reads that fill the buffer, WINDOW_UPDATEs
  head -c 200000 /dev/zero | tr '\0' 'y' >"$TEST_TMP/htdocs/big.txt"
  start_nghttpd tls_big --tls
  run_stampede tls_big -c 10 -n 5 -m 2 -http2 --insecure -u "https://127.0.0.1:$H2_PORT/big.txt" --output json
  expect_all_ok 50 2 h2 $((50 * 200000))
}

case_tls_strict() {  # a certificate the client must refuse: every request a tls failure, counted
  start_nginx --tls --h2 "$TEST_TMP/nginx-strict"
  run_stampede tls_strict -c 4 -n 5 -m 2 -http2 -u "$HTTPS_URL/?run=strict" --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.total") == 20 and g("requests.failed") == 20 and g("requests.succeeded") == 0
g("errors.tls") == 20 ## each request's connection failed its handshake
PYEOF
  grep -q -- "certificate verify failed.*use --insecure" "$ERR" ||
    fail "tls_strict: stderr does not suggest --insecure: $(head -c 2000 "$ERR")"
  assert_eq 0 "$(count_requests "$ACCESS_LOG" 'run=strict')" "tls_strict: requests nginx saw"
}

case_tls_goaway() {  # nginx's GOAWAY after 10 streams, over TLS: refused streams are `closed`
  start_nginx --tls --h2 "$TEST_TMP/nginx-tls-goaway" "keepalive_requests 10;"
  run_stampede tls_goaway -c 8 -n 25 -m 2 -cpuNumber 1 -http2 --insecure -u "$HTTPS_URL/?run=goaway" --output json
  expect_rc 0
  local ok
  ok=$(json_eval "$OUT" 'g("requests.succeeded")')
  json_check "$OUT" <<'PYEOF'
g("requests.total") == 200 and g("requests.succeeded") >= 100
g("requests.failed") == g("errors.closed") ## refused streams, counted, never resent
g("connections.opened") >= 200 // 10 // 2 and g("connections.protocols") == {"h2": g("connections.opened")}
PYEOF
  assert_eq "$ok" "$(count_requests "$ACCESS_LOG" '"GET /?run=goaway HTTP/2.0"')" "tls_goaway: requests nginx answered"
}

case_max5() {  # the server allows 5 streams: 10 users a connection queue for them
  start_nghttpd max5 --no-tls -m 5
  run_stampede max5 -c 20 -n 10 -m 2 -cpuNumber 1 -http2 -u "http://127.0.0.1:$H2_PORT/file.txt" --output json
  check_mux max5 20 10 2 5
}

case_max1() {  # one stream at a time: the connection is a queue
  start_nghttpd max1 --no-tls -m 1
  run_stampede max1 -c 8 -n 5 -m 1 -http2 -u "http://127.0.0.1:$H2_PORT/file.txt" --output json
  check_mux max1 8 5 1 1
  grep -q "^Queueing:" <("$STAMPEDE" -c 4 -n 2 -m 1 -http2 -u "http://127.0.0.1:$H2_PORT/file.txt") ||
    fail "max1: no Queueing row in the text report"
}

case_more_than_users() {  # -m above -c: one connection a user, no more
  start_nghttpd more --no-tls
  run_stampede more -c 3 -n 4 -m 10 -http2 -u "http://127.0.0.1:$H2_PORT/file.txt" --output json
  check_mux more 3 4 3 1
}

case_nginx() {  # nginx's log: every request as HTTP/2.0 over exactly -m connections
  start_nginx --h2 "$TEST_TMP/nginx" "listen unix:$TEST_TMP/h2.sock http2;"
  run_stampede nginx -c 50 -n 20 -m 5 -cpuNumber 2 -http2 -u "$HTTP_URL/?run=nginx" --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 1000 and g("connections.opened") == 5'
  assert_eq 1000 "$(count_requests "$ACCESS_LOG" '"GET /?run=nginx HTTP/2.0"')" "nginx: HTTP/2 requests nginx saw"
  assert_eq 5 "$(count_distinct_connections "$ACCESS_LOG" 'run=nginx ')" "nginx: connections nginx saw"
  # Over a Unix socket, whose connect() is done before it returns and before any call waits:
  # each connection still counted once, by the first call that comes after it.
  echo "curl --unix-socket '$TEST_TMP/h2.sock' --http2-prior-knowledge 'http://localhost/?run=unix'" >"$TEST_TMP/unix.curl.txt"
  run_stampede unix -c 20 -n 5 -m 2 -cpuNumber 1 -p "$TEST_TMP/unix.curl.txt" --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 100 and g("connections.opened") == 2'
  assert_eq 100 "$(count_requests "$ACCESS_LOG" '"GET /?run=unix HTTP/2.0"')" "unix: HTTP/2 requests nginx saw"
  assert_eq 2 "$(count_distinct_connections "$ACCESS_LOG" 'run=unix ')" "unix: connections nginx saw"
}

case_goaway() {  # GOAWAY after 10 streams: what it refused fails as `closed`, the rest goes on
  start_nginx --h2 "$TEST_TMP/nginx-goaway" "keepalive_requests 10;"
  run_stampede goaway -c 8 -n 25 -m 2 -cpuNumber 1 -http2 -u "$HTTP_URL/?run=goaway" --output json
  expect_rc 0
  local ok
  ok=$(json_eval "$OUT" 'g("requests.succeeded")')
  json_check "$OUT" <<'PYEOF'
g("requests.total") == 200
g("requests.failed") == g("errors.closed") ## refused streams, counted, never resent
g("connections.opened") >= 200 // 10 // 2
PYEOF
  assert_eq "$ok" "$(count_requests "$ACCESS_LOG" '"GET /?run=goaway HTTP/2.0"')" "goaway: requests nginx answered"
}

case_timeout() {  # -t resets the slow stream alone: its neighbours on the connection go on
  start_serve
  cat >"$TEST_TMP/slow.curl.txt" <<CURL
curl --http2-prior-knowledge http://127.0.0.1:$SERVE_PORT/delay/3000
curl --http2-prior-knowledge http://127.0.0.1:$SERVE_PORT/
CURL
  run_stampede timeout -c 4 -n 2 -m 1 -t 0.5 -p "$TEST_TMP/slow.curl.txt" --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.total") == 16 and g("requests.succeeded") == 8 and g("errors.timeout") == 8
g("steps")[0]["errors"]["timeout"] == 8 and g("steps")[1]["requests"]["succeeded"] == 8
g("connections.opened") == 1 ## each timeout reset its stream, never the connection
PYEOF
  took 1.0 2.5 "two rounds of -t 0.5"
}

case_usage() {  # -m needs -http2, and does not go with --hold
  run_stampede usage-h1 -c 2 -n 1 -m 1 -u "http://127.0.0.1:9/"
  expect_rc 2
  grep -q -- "-m needs -http2" "$ERR" || fail "usage-h1: $(head -c 500 "$ERR")"
  run_stampede usage-hold -c 2 -n 1 -m 1 -http2 --hold 1 -u "http://127.0.0.1:9/"
  expect_rc 2
  grep -q -- "-m with --hold" "$ERR" || fail "usage-hold: $(head -c 500 "$ERR")"
  run_stampede usage-range -c 2 -n 1 -m -1 -http2 -u "http://127.0.0.1:9/"
  expect_rc 2
  grep -q -- "-m must be" "$ERR" || fail "usage-range: $(head -c 500 "$ERR")"
}

run_cases "${MUX_CASES:-}" h2c tls tls_big tls_strict tls_goaway max5 max1 more_than_users nginx goaway \
  timeout usage
pass
