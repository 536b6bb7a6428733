#!/usr/bin/env bash
# A self-signed certificate: refused (as tls errors, with a hint) unless --insecure; then all succeed.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx --tls "$TEST_TMP/nginx"

run_stampede strict -c 2 -n 5 -u "$HTTPS_URL/?run=strict" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 10 ## every request is accounted for
g("requests.failed") == 10 and g("requests.succeeded") == 0
g("errors.tls") == g("requests.total") ## all failures are tls errors
EOF
grep -q -- '--insecure' "$ERR" || fail "stderr does not suggest --insecure; it was:
$(head -c 2000 "$ERR")"
assert_eq 0 "$(count_requests "$ACCESS_LOG" 'run=strict')" "nginx requests without --insecure"

run_stampede insecure -c 2 -n 5 -u "$HTTPS_URL/?run=insecure" --insecure --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 10 and g("requests.succeeded") == 10 and g("requests.failed") == 0
g("errors.tls") == 0
g("status_codes") == {"200": 10}
EOF
assert_eq 10 "$(count_requests "$ACCESS_LOG" "200 \"GET /?run=insecure HTTP/1.1\" $INDEX_BYTES $HTTPS_PORT")" \
  "nginx 200 responses on the TLS port"
pass
