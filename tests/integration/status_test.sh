#!/usr/bin/env bash
# A 500 answer is a failure by default and a success with -code 500; it is always counted by status.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

run_stampede default -c 2 -n 10 -u "$HTTP_URL/status500?run=default" --output json
expect_rc 0
assert_eq 20 "$(count_requests "$ACCESS_LOG" '500 "GET /status500?run=default ')" "nginx 500 responses"
json_check "$OUT" <<'EOF'
g("requests.total") == 20
g("requests.failed") == 20 and g("requests.succeeded") == 0 ## a 500 is a failure by default
g("status_codes") == {"500": 20}
EOF

run_stampede code500 -c 2 -n 10 -u "$HTTP_URL/status500?run=code500" -code 500 --output json
expect_rc 0
assert_eq 20 "$(count_requests "$ACCESS_LOG" '500 "GET /status500?run=code500 ')" "nginx 500 responses"
json_check "$OUT" <<'EOF'
g("requests.total") == 20
g("requests.succeeded") == 20 and g("requests.failed") == 0 ## -code 500 makes 500 a success
g("status_codes") == {"500": 20}
all(v == 0 for v in g("errors").values()) ## no errors with -code 500
EOF
pass
