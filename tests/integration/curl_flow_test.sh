#!/usr/bin/env bash
# curl files against nginx: a flow's steps in order on each user's connection with per-step
# counts, --compressed decoded before the JSON verifier, --max-time and --connect-timeout applied.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx --stall "$TEST_TMP/nginx" 'location /flow/ { return 200 "ok\n"; }
        location = /gz/json {
            gzip on; gzip_types application/json; gzip_min_length 0;
            default_type application/json; return 200 "{\"code\":200,\"msg\":\"ok\"}";
        }'
STALL_URL=http://127.0.0.1:$STALL_PORT

cat >"$TEST_TMP/flow.curl.txt" <<EOF
# log in, look at the cart, pay: each user, in this order
curl '$HTTP_URL/flow/login' --data-raw 'user=a&password=b'
curl '$HTTP_URL/flow/cart' -H 'Cookie: session=1'
curl -X PUT '$HTTP_URL/flow/pay'
EOF
run_stampede flow -c 3 -n 4 -k -p "$TEST_TMP/flow.curl.txt" --output json
expect_rc 0
assert_eq 12 "$(count_requests "$ACCESS_LOG" '"POST /flow/login ')" "logins"
assert_eq 12 "$(count_requests "$ACCESS_LOG" '"GET /flow/cart ')" "carts"
assert_eq 12 "$(count_requests "$ACCESS_LOG" '"PUT /flow/pay ')" "payments"
assert_eq 3 "$(count_distinct_connections "$ACCESS_LOG" '/flow/')" "connections"
# On each connection, in nginx's order of requests: login, cart, pay, four times.
orders=$(grep -F '/flow/' "$ACCESS_LOG" | sort -k1,1n -k2,2n |
  awk '{ seq[$1] = seq[$1] substr($5, 7, 1) } END { for (c in seq) print seq[c] }' | sort -u)
assert_eq "lcplcplcplcp" "$orders" "the steps' order on every connection"
json_check "$OUT" <<EOF
g("requests.total") == 36 and g("requests.succeeded") == 36
len(g("steps")) == 3
[s["request"] for s in g("steps")] == ["POST $HTTP_URL/flow/login", "GET $HTTP_URL/flow/cart", "PUT $HTTP_URL/flow/pay"]
all(s["requests"]["total"] == 12 and s["requests"]["succeeded"] == 12 for s in g("steps"))
g("connections.opened") == 3 ## one connection a user, shared by the steps
EOF
run_stampede flow_text -c 2 -n 1 -k -p "$TEST_TMP/flow.curl.txt"
expect_rc 0
grep -qE '^ +2 +2 +0 .* GET http://127\.0\.0\.1:[0-9]+/flow/cart$' "$OUT" ||
  fail "the text report has no line for step 2: $(cat "$OUT")"

echo "curl --compressed '$HTTP_URL/gz/json'" >"$TEST_TMP/gz.curl.txt"
run_stampede compressed -c 2 -n 3 -k -v json -p "$TEST_TMP/gz.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 6 ## the gzip body is decoded before the JSON verifier reads it
EOF
# The same with Accept-Encoding but no --compressed: nginx did gzip, and the body stays gzip.
echo "curl -H 'Accept-Encoding: gzip' '$HTTP_URL/gz/json'" >"$TEST_TMP/gz-raw.curl.txt"
run_stampede not_compressed -c 1 -n 2 -k -v json -p "$TEST_TMP/gz-raw.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("errors.verify") == 2 ## as curl, without --compressed nothing is decoded: not JSON
EOF

echo "curl --max-time 0.5 '$STALL_URL/'" >"$TEST_TMP/max-time.curl.txt"
run_stampede max_time -c 2 -n 1 -p "$TEST_TMP/max-time.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("errors.timeout") == 2 ## the file's --max-time, not the 30 s default of -t
EOF
awk -v t="$ELAPSED" 'BEGIN { exit !(t <= 5) }' || fail "--max-time 0.5 took ${ELAPSED}s"

# The stall server accepts and never answers: a TLS handshake to it stalls in the connect phase.
echo "curl -k --connect-timeout 0.5 'https://127.0.0.1:$STALL_PORT/'" >"$TEST_TMP/connect.curl.txt"
run_stampede connect_timeout -c 2 -n 1 -t 20 -p "$TEST_TMP/connect.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("errors.timeout") == 2
g("phases_ms.connect.max") == 0 ## no connection was ever completed
EOF
awk -v t="$ELAPSED" 'BEGIN { exit !(t <= 5) }' || fail "--connect-timeout 0.5 took ${ELAPSED}s"
pass
