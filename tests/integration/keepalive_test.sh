#!/usr/bin/env bash
# -k reuses connections (at most one per user); without -k every request opens its own connection.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

run_stampede keepalive -k -c 10 -n 100 -u "$HTTP_URL/?run=ka" --output json
expect_rc 0
assert_eq 1000 "$(count_requests "$ACCESS_LOG" 'GET /?run=ka HTTP/1.1')" "nginx requests with -k"
conns=$(count_distinct_connections "$ACCESS_LOG" 'GET /?run=ka HTTP/1.1')
assert_le "$conns" 10 "distinct nginx connections with -k -c 10"
json_check "$OUT" <<EOF
g("requests.succeeded") == 1000 and g("requests.failed") == 0
g("connections.opened") == $conns ## stampede's count vs the $conns connections nginx saw
EOF

run_stampede close -c 10 -n 100 -u "$HTTP_URL/?run=close" --output json
expect_rc 0
assert_eq 1000 "$(count_requests "$ACCESS_LOG" 'GET /?run=close HTTP/1.1')" "nginx requests without -k"
assert_eq 1000 "$(count_distinct_connections "$ACCESS_LOG" 'GET /?run=close HTTP/1.1')" \
  "distinct nginx connections without -k"
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 1000 and g("requests.failed") == 0
g("connections.opened") == 1000 ## one connection per request without -k
EOF
pass
