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
EOF
# No timeout fires early, none waits much past its deadline, and the process ends with the run.
took 2.0 2.3 "two 1 s timeouts in a row, each within 5% of -t (and start-up)"
# nginx logs 499 (client closed) once stampede gives up on a request.
assert_eq 4 "$(count_requests "$ACCESS_LOG" 'GET /slow?run=stall ')" "requests that reached nginx"
pass
