#!/usr/bin/env bash
# curl files whose connections go elsewhere, against nginx: --unix-socket, --resolve and
# --connect-to reach it with exact counts and one connection a user; -0 (HTTP/1.0) keeps its
# connections with -k and opens one a request without; a socket that is not there fails cleanly.
source "$(dirname "$0")/lib.sh" "$@"
SOCK=$TEST_TMP/nginx.sock
start_nginx "$TEST_TMP/nginx" "listen unix:$SOCK;
        location /routes/ { return 200 \"ok\\n\"; }"

# one NAME CURL_LINE: 4 users, 25 rounds each, of the one request CURL_LINE makes.
one() {
  echo "$2" >"$TEST_TMP/$1.curl.txt"
  run_stampede "$1" -c 4 -n 25 "${@:3}" -p "$TEST_TMP/$1.curl.txt" --output json
  expect_rc 0
  json_check "$OUT" <<EOF
g("requests.total") == 100 and g("requests.succeeded") == 100
EOF
}

one unix "curl --unix-socket '$SOCK' http://unix.stampede.test/routes/unix" -k
assert_eq 100 "$(count_requests "$ACCESS_LOG" '"GET /routes/unix HTTP/1.1"')" "requests over the Unix socket"
assert_eq 4 "$(count_distinct_connections "$ACCESS_LOG" '/routes/unix')" "Unix socket connections"

one resolve "curl --resolve api.stampede.test:$HTTP_PORT:127.0.0.1 http://api.stampede.test:$HTTP_PORT/routes/resolved" -k
assert_eq 100 "$(count_requests "$ACCESS_LOG" '"GET /routes/resolved HTTP/1.1"')" "requests through --resolve"
assert_eq 4 "$(count_distinct_connections "$ACCESS_LOG" '/routes/resolved')" "--resolve connections"

one connect "curl --connect-to ::127.0.0.1:$HTTP_PORT http://elsewhere.stampede.test/routes/connected" -k
assert_eq 100 "$(count_requests "$ACCESS_LOG" '"GET /routes/connected HTTP/1.1"')" "requests through --connect-to"

one h10_keep "curl -0 http://127.0.0.1:$HTTP_PORT/routes/h10-keep" -k
assert_eq 100 "$(count_requests "$ACCESS_LOG" '"GET /routes/h10-keep HTTP/1.0"')" "HTTP/1.0 requests with -k"
assert_eq 4 "$(count_distinct_connections "$ACCESS_LOG" '/routes/h10-keep')" "HTTP/1.0 connections kept with -k"

one h10_close "curl -0 http://127.0.0.1:$HTTP_PORT/routes/h10-close"
assert_eq 100 "$(count_requests "$ACCESS_LOG" '"GET /routes/h10-close HTTP/1.0"')" "HTTP/1.0 requests"
assert_eq 100 "$(count_distinct_connections "$ACCESS_LOG" '/routes/h10-close')" "HTTP/1.0 connections without -k"

echo "curl --unix-socket '$TEST_TMP/missing.sock' http://x/routes/none" >"$TEST_TMP/missing.curl.txt"
run_stampede missing -c 2 -n 3 -k -p "$TEST_TMP/missing.curl.txt" --output json
json_check "$OUT" <<EOF
g("requests.total") == 6 and g("requests.failed") == 6
g("errors.connect") == 6
EOF
assert_eq 0 "$(count_requests "$ACCESS_LOG" '/routes/none')" "requests to a missing socket"
pass
