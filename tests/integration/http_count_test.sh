#!/usr/bin/env bash
# -c 10 -n 100 against nginx: exactly 1000 requests reach the server, and both reports say so.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

run_stampede json -c 10 -n 100 -u "$HTTP_URL/?run=json" --output json
expect_rc 0
assert_eq 1000 "$(count_requests "$ACCESS_LOG" 'GET /?run=json HTTP/1.1')" "nginx access log lines for the JSON run"
assert_eq 1000 "$(count_requests "$ACCESS_LOG" '200 "GET /?run=json ')" "nginx 200 responses for the JSON run"
json_check "$OUT" <<EOF
g("requests.total") == 1000
g("requests.succeeded") == 1000
g("requests.failed") == 0
g("requests.abandoned") == 0
g("status_codes") == {"200": 1000}
g("bytes.body_received") == 1000 * $INDEX_BYTES ## index.html is $INDEX_BYTES bytes
g("bytes.received") > g("bytes.body_received") ## headers count in bytes.received
g("bytes.sent") > 0
all(v == 0 for v in g("errors").values()) ## no errors of any kind
EOF

run_stampede text -c 10 -n 100 -u "$HTTP_URL/?run=text"
expect_rc 0
assert_eq 1000 "$(count_requests "$ACCESS_LOG" 'GET /?run=text HTTP/1.1')" "nginx access log lines for the text run"
grep -Eq '^[[:space:]]*Complete requests:[[:space:]]+1000[[:space:]]*$' "$OUT" ||
  fail "text report has no 'Complete requests: 1000' line; report was:
$(cat "$OUT")"
grep -Eq '^[[:space:]]*Failed requests:[[:space:]]+0[[:space:]]*$' "$OUT" ||
  fail "text report has no 'Failed requests: 0' line; report was:
$(cat "$OUT")"
assert_eq 2000 "$(count_requests "$ACCESS_LOG")" "all nginx access log lines (nothing else was sent)"
pass
