#!/usr/bin/env bash
# A self-signed certificate: refused (as tls errors, with a hint) unless --insecure; then all succeed.
# Each user resumes its TLS session on its next connection, unless --no-tls-resume.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx --tls "$TEST_TMP/nginx" "location /resume { access_log $TEST_TMP/tls.log tls; return 200 \"ok\\n\"; }"

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

# --- A connection a request: each user's first handshake is a full one, and its later ones
# resume its session (a TLS 1.2 session ticket with this nginx), as a browser's do;
# --no-tls-resume makes them all full.
run_stampede resumed -c 2 -n 5 --insecure -u "$HTTPS_URL/resume?run=resumed" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 10' "requests over new connections"
assert_eq 10 "$(count_requests "$TEST_TMP/tls.log" 'run=resumed')" "connections nginx saw"
assert_eq 8 "$(count_requests "$TEST_TMP/tls.log" 'run=resumed HTTP/1.1" r ')" "handshakes that resumed a session"
run_stampede full -c 2 -n 5 --insecure --no-tls-resume -u "$HTTPS_URL/resume?run=full" --output json
expect_rc 0
assert_eq 10 "$(count_requests "$TEST_TMP/tls.log" 'run=full HTTP/1.1" . ')" "full handshakes with --no-tls-resume"
pass
