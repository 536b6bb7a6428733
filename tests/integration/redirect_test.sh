#!/usr/bin/env bash
# -redirect against nginx: relative hops resolved from each exchange's own URL, 303 turns a POST
# into a GET and 307 keeps it, another origin and a loop past 10 hops end with the 3xx itself.
source "$(dirname "$0")/lib.sh" "$@"
# Relative Locations (absolute_redirect off) exercise reference resolution: a hop resolved from
# the previous exchange's last URL instead of its own would ask for /follow/deep/deep/x.
start_nginx "$TEST_TMP/nginx" 'absolute_redirect off;
        location ~ ^/(follow|plain|see|keep)/a$ { return 302 deep/x; }
        location ~ ^/see/b$ { return 303 deep/x; }
        location ~ ^/keep/b$ { return 307 deep/x; }
        location ~ /deep/x$ { return 200 "arrived\n"; }
        location = /away/a { return 302 http://127.0.0.1:1/elsewhere; }
        location = /loop/a { return 302 a; }'

run_stampede follow -c 2 -n 5 -k -redirect -u "$HTTP_URL/follow/a" --output json
expect_rc 0
assert_eq 10 "$(count_requests "$ACCESS_LOG" '302 "GET /follow/a ')" "first hops"
assert_eq 10 "$(count_requests "$ACCESS_LOG" '200 "GET /follow/deep/x ')" "second hops"
assert_eq 20 "$(count_requests "$ACCESS_LOG" '"GET /follow/')" "requests in all"
json_check "$OUT" <<'EOF'
g("requests.total") == 10 and g("requests.succeeded") == 10 ## a followed chain is one request
g("status_codes") == {"200": 10} ## the last response of the chain counts
g("connections.opened") == 2 ## same origin: the hops reuse the connection
EOF

run_stampede plain -c 2 -n 5 -k -u "$HTTP_URL/plain/a" --output json
expect_rc 0
assert_eq 0 "$(count_requests "$ACCESS_LOG" '"GET /plain/deep/x ')" "hops without -redirect"
json_check "$OUT" <<'EOF'
g("requests.failed") == 10 and g("errors.verify") == 10 ## a 302 is not -code 200
g("status_codes") == {"302": 10}
EOF

run_stampede see -c 1 -n 3 -redirect -data 'a=1' -u "$HTTP_URL/see/b" --output json
expect_rc 0
assert_eq 3 "$(count_requests "$ACCESS_LOG" '303 "POST /see/b ')" "POSTs answered 303"
assert_eq 3 "$(count_requests "$ACCESS_LOG" '200 "GET /see/deep/x ')" "303 becomes a GET"
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 3
EOF

run_stampede keep -c 1 -n 3 -redirect -data 'a=1' -u "$HTTP_URL/keep/b" --output json
expect_rc 0
assert_eq 3 "$(count_requests "$ACCESS_LOG" '200 "POST /keep/deep/x ')" "307 keeps the POST"

run_stampede away -c 1 -n 2 -redirect -u "$HTTP_URL/away/a" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("status_codes") == {"302": 2} ## another origin is not followed: the 302 is the result
g("errors.connect") == 0 ## nothing was sent to port 1
EOF

run_stampede loop -c 1 -n 1 -k -redirect -u "$HTTP_URL/loop/a" --output json
expect_rc 0
assert_eq 11 "$(count_requests "$ACCESS_LOG" '"GET /loop/a ')" "the request and 10 hops"
json_check "$OUT" <<'EOF'
g("status_codes") == {"302": 1} ## past 10 hops the 302 is the result
EOF
pass
