#!/usr/bin/env bash
# A server that never answers yields timeout failures after -t seconds, not a hang.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx --stall "$TEST_TMP/nginx"

STAMPEDE_LIMIT=30 run_stampede stall -t 1 -c 2 -n 2 -u "$HTTP_URL/slow?run=stall" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 4
g("requests.failed") == 4 and g("requests.succeeded") == 0
g("errors.timeout") == 4 ## all four failures are timeouts
2.0 <= g("duration_s") <= 2.3 ## two 1 s timeouts in a row, each within 5% of -t (and start-up)
EOF
# The whole process too: no timeout fires early, and none waits much past its deadline.
awk -v t="$ELAPSED" 'BEGIN { exit !(t >= 2.0 && t <= 3.5) }' ||
  fail "two sequential 1 s timeouts per user should take 2 s to 2.1 s; the run took ${ELAPSED}s"
# nginx logs 499 (client closed) once stampede gives up on a request.
assert_eq 4 "$(count_requests "$ACCESS_LOG" 'GET /slow?run=stall ')" "requests that reached nginx"
pass
