#!/usr/bin/env bash
# HTTP/2 against nghttpd from curl files: --http2-prior-knowledge (h2c) and --http2 over TLS (ALPN
# h2); a TLS server that selects http/1.1 gets HTTP/1.1 (as from curl) (--http2 with an http://
# URL asks to upgrade: h2c_upgrade_test.sh); stampede's -http2 against nginx
# with HTTP/2 on (h2c and TLS, GOAWAY after 10 streams), with a body, and against an HTTP/1.1-only
# server.
source "$(dirname "$0")/lib.sh" "$@"
command -v nghttpd >/dev/null || fail "'nghttpd' is not installed (apt-get install nghttp2-server)"

FILE_BYTES=1000
mkdir -p "$TEST_TMP/htdocs"
head -c "$FILE_BYTES" /dev/zero | tr '\0' 'x' >"$TEST_TMP/htdocs/file.txt"
mkdir -p "$TEST_TMP/htdocs/dir"
printf 'in dir\n' >"$TEST_TMP/htdocs/dir/index.html"  # nghttpd redirects /dir to /dir/ (301)
make_cert "$TEST_TMP"

# check_h2 NAME C N: the run NAME (C users, N requests each, -k) all succeeded over HTTP/2.
check_h2() {
  local name=$1 c=$2 n=$3
  expect_rc 0
  json_check "$OUT" <<EOF
g("requests.total") == $c * $n and g("requests.succeeded") == $c * $n and g("requests.failed") == 0
g("status_codes") == {"200": $c * $n}
g("connections.opened") == $c ## one HTTP/2 connection per user with -k
g("bytes.body_received") == $c * $n * $FILE_BYTES
EOF
  # nghttpd -v logs every frame it receives: each request is a HEADERS frame with :path, each
  # connection starts with our SETTINGS (an HTTP/1.1 request would fail its preface check).
  assert_eq $((c * n)) "$(await_lines "$TEST_TMP/$name.log" ':path: /file.txt' $((c * n)))" \
    "$name: HTTP/2 requests nghttpd saw"
  assert_eq "$c" "$(grep -c 'recv SETTINGS frame <length=[1-9]' "$TEST_TMP/$name.log" || true)" \
    "$name: HTTP/2 connections nghttpd saw"
  if grep -q -- "sends HTTP/1.1" "$ERR"; then fail "$name: stderr warns that HTTP/1.1 is sent"; fi
}

# log_end LOG: the number of LOG's next line, once it has settled (a run's frames start there).
log_end() {
  settle_log "$1"
  echo $(($(wc -l <"$1") + 1))
}

# frame_bytes LOG FROM recv|send: the bytes of the frames nghttpd -v logged from line FROM of LOG
# on as read (recv) or written (send): each frame's length and its 9-byte header.
frame_bytes() {
  tail -n +"$2" "$1" | sed -nE "s/.* $3 [A-Z_]+ frame <length=([0-9]+),.*/\1/p" |
    awk '{ s += $1 + 9 } END { print s + 0 }'
}

# wire_check NAME LOG FROM: the last run counted the HTTP/2 bytes on its connections (inside TLS)
# as nghttpd logged them from line FROM of LOG on: sent, the frames it read and our connection
# prefaces (24 bytes each); received, the frames it wrote.
wire_check() {
  local name=$1 log=$2 from=$3 ack='recv SETTINGS frame <length=0, flags=0x01' opened before
  opened=$(json_eval "$OUT" 'g("connections.opened")')
  # Each connection's last frame from us is the ACK of the server's SETTINGS.
  before=$(head -n "$((from - 1))" "$log" | grep -c "$ack" || true)
  assert_eq $((before + opened)) "$(await_lines "$log" "$ack" $((before + opened)))" \
    "$name: SETTINGS ACKs nghttpd read"
  assert_eq "$(($(frame_bytes "$log" "$from" recv) + 24 * opened))" \
    "$(json_eval "$OUT" 'g("bytes.sent")')" "$name: bytes sent, as nghttpd read them"
  assert_eq "$(frame_bytes "$log" "$from" send)" "$(json_eval "$OUT" 'g("bytes.received")')" \
    "$name: bytes received, as nghttpd wrote them"
}

start_nghttpd h2c --no-tls
H2C_PORT=$H2_PORT
echo "curl --http2-prior-knowledge 'http://127.0.0.1:$H2_PORT/file.txt'" >"$TEST_TMP/h2c.curl.txt"
run_stampede h2c -c 3 -n 20 -k -p "$TEST_TMP/h2c.curl.txt" --output json
check_h2 h2c 3 20

# Wire bytes, with keep-alive and without (a connection per request, each ACKing the server's
# SETTINGS before it closes); with TLS below. Three runs of 6 requests: about 0.2 s.
for k in -k ""; do
  from=$(log_end "$TEST_TMP/h2c.log")
  run_stampede "wire$k" -c 2 -n 3 $k -http2 -u "http://127.0.0.1:$H2C_PORT/file.txt" --output json
  expect_rc 0
  wire_check "wire$k" "$TEST_TMP/h2c.log" "$from"
done

# -L: the 301 from /dir to /dir/ is followed on the same HTTP/2 connection.
echo "curl -L --http2-prior-knowledge 'http://127.0.0.1:$H2_PORT/dir'" >"$TEST_TMP/redirect.curl.txt"
run_stampede redirect -c 2 -n 3 -k -p "$TEST_TMP/redirect.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 6 and g("status_codes") == {"200": 6}
g("connections.opened") == 2 and g("bytes.body_received") == 6 * 7
EOF
assert_eq 6 "$(await_lines "$TEST_TMP/h2c.log" ':path: /dir/$' 6)" "redirect targets nghttpd saw"
assert_eq 6 "$(grep -cE ':path: /dir$' "$TEST_TMP/h2c.log" || true)" "redirected requests nghttpd saw"

start_nghttpd h2tls --tls
echo "curl --http2 --insecure 'https://127.0.0.1:$H2_PORT/file.txt'" >"$TEST_TMP/h2tls.curl.txt"
run_stampede h2tls -c 2 -n 10 -k -p "$TEST_TMP/h2tls.curl.txt" --output json
check_h2 h2tls 2 10
from=$(log_end "$TEST_TMP/h2tls.log")
run_stampede wire_tls -c 2 -n 3 -http2 --insecure -u "https://127.0.0.1:$H2_PORT/file.txt" --output json
expect_rc 0
wire_check wire_tls "$TEST_TMP/h2tls.log" "$from"

# --print-request shows an HTTP/2 step's header list (HPACK on the wire), pseudo-headers first.
run_stampede print -p "$TEST_TMP/h2tls.curl.txt" --print-request
expect_rc 0
head -4 "$OUT" | tr -d '\r' >"$TEST_TMP/print.txt"
printf ':method: GET\n:scheme: https\n:authority: 127.0.0.1:%s\n:path: /file.txt\n' "$H2_PORT" |
  diff - "$TEST_TMP/print.txt" || fail "print: not the HTTP/2 header list: $(head -c 500 "$OUT")"
grep -q "goes as HTTP/2" "$ERR" || fail "print: no note on stderr: $(head -c 500 "$ERR")"

# Without -k each request has its own connection, as with HTTP/1.1.
start_nghttpd h2close --no-tls
echo "curl --http2-prior-knowledge 'http://127.0.0.1:$H2_PORT/file.txt'" >"$TEST_TMP/h2close.curl.txt"
run_stampede h2close -c 2 -n 3 -p "$TEST_TMP/h2close.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 6 and g("connections.opened") == 6
EOF

# nginx here speaks HTTP/1.1 only: it selects http/1.1 by ALPN, and each user goes on over
# HTTP/1.1, as curl and go-stress-testing (Go's transport) do, after one warning.
start_nginx --tls "$TEST_TMP/nginx"
echo "curl --http2 --insecure '$HTTPS_URL/?run=h1only'" >"$TEST_TMP/h1only.curl.txt"
run_stampede h1only -c 2 -n 3 -k -p "$TEST_TMP/h1only.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 6 and g("requests.succeeded") == 6 and g("status_codes") == {"200": 6}
g("connections.opened") == 2 ## each user's HTTP/1.1 connection, reused
g("connections.protocols") == {"http/1.1": 2} ## the h2 attempts, closed unused, are not counted
EOF
assert_eq 1 "$(grep -c "did not select HTTP/2 by ALPN" "$ERR" || true)" "fallback warnings"
assert_eq 6 "$(count_requests "$ACCESS_LOG" '"GET /?run=h1only HTTP/1.1"')" "HTTP/1.1 requests nginx saw"
assert_eq 2 "$(count_distinct_connections "$ACCESS_LOG" 'run=h1only')" "connections nginx saw"

# -http2 on stampede's own command line against an HTTP/1.1-only server: h2c is refused, each
# exchange fails, and the one warning says why.
run_stampede h2c-refused -c 2 -n 2 -k -http2 -u "$HTTP_URL/?run=h2c-refused" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.total") == 4 and g("requests.failed") == 4'
grep -q "no HTTP/2 from the server" "$ERR" || fail "h2c-refused: no hint: $(head -c 2000 "$ERR")"

# -http2 against nginx with HTTP/2 on: its access log sees every request as HTTP/2.0, over c
# connections; h2c with prior knowledge on http://, ALPN h2 on https://.
start_nginx --tls --h2 "$TEST_TMP/nginx-h2"
for scheme in http https; do
  url=$HTTP_URL
  [[ $scheme == https ]] && url=$HTTPS_URL
  run_stampede "nginx-$scheme" -c 4 -n 25 -k -http2 --insecure -u "$url/?run=$scheme" --output json
  expect_rc 0
  json_check "$OUT" <<EOF
g("requests.succeeded") == 100 and g("requests.failed") == 0 and g("status_codes") == {"200": 100}
g("connections.opened") == 4 and g("bytes.body_received") == 100 * $INDEX_BYTES
g("connections.protocols") == {("h2" if "$scheme" == "https" else "h2c"): 4}
EOF
  assert_eq 100 "$(count_requests "$ACCESS_LOG" "\"GET /?run=$scheme HTTP/2.0\"")" "$scheme: HTTP/2 requests nginx saw"
  assert_eq 4 "$(count_distinct_connections "$ACCESS_LOG" "run=$scheme ")" "$scheme: connections nginx saw"
  if grep -q "did not select" "$ERR"; then fail "nginx-$scheme: fell back to HTTP/1.1"; fi
done

# nginx ends an HTTP/2 connection with GOAWAY after keepalive_requests streams: each user opens
# a new one and no request is lost (one refused in the race is sent again).
start_nginx --h2 "$TEST_TMP/nginx-goaway" "keepalive_requests 10;"
run_stampede goaway -c 2 -n 25 -k -http2 -u "$HTTP_URL/?run=goaway" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 50 and g("requests.failed") == 0
g("connections.opened") == 6 ## 10 + 10 + 5 streams per user
EOF
assert_eq 50 "$(count_requests "$ACCESS_LOG" '"GET /?run=goaway HTTP/2.0"')" "goaway: HTTP/2 requests nginx saw"
assert_eq 6 "$(count_distinct_connections "$ACCESS_LOG" 'run=goaway')" "goaway: connections nginx saw"

# A body goes out in DATA frames: nghttpd logs each with its length.
run_stampede h2c-post -c 2 -n 3 -k -http2 -data 'name=stampede' -u "http://127.0.0.1:$H2C_PORT/file.txt" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 6'
assert_eq 6 "$(await_lines "$TEST_TMP/h2c.log" 'recv DATA frame <length=13, flags=0x01' 6)" "DATA frames nghttpd saw"

# A server that accepts and never answers: every exchange ends as a timeout, none hangs.
start_stall_server
echo "curl --http2-prior-knowledge --max-time 0.3 'http://127.0.0.1:$STALL_PORT/'" >"$TEST_TMP/stall.curl.txt"
STAMPEDE_LIMIT=20 run_stampede stall -c 2 -n 2 -p "$TEST_TMP/stall.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 4 and g("errors.timeout") == 4
EOF
# It said nothing: not called HTTP/1.1-only, as one that closes or answers in HTTP/1.1 is.
grep -qF "no HTTP/2 SETTINGS from the server before the timeout: it took the connection and said nothing" "$ERR" ||
  fail "stall: the silence is not named: $(head -c 2000 "$ERR")"
if grep -q "HTTP/1.1-only" "$ERR"; then fail "stall: called HTTP/1.1-only"; fi
pass
