#!/usr/bin/env bash
# --digest against a server that checks RFC 7616 answers (digest_server.py): as curl does, each
# request goes without credentials, and the 401's Digest challenge (beside a Basic one) is
# answered on the same exchange with the right response, so every request ends in a 200; a wrong
# password answers once and ends in the second 401 (no loop); SHA-256 as well as MD5.
source "$(dirname "$0")/lib.sh" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
start_py_server digest "$PYTHON" "$HERE/digest_server.py"
URL=http://127.0.0.1:$SERVER_PORT
LOG=$SERVER_LOG

# count WORD: lines of the server's log that start with WORD.
count() { grep -c "^$1 " "$LOG" || true; }

# Real curl first: what it sends is what stampede must send.
curl -sS --digest -u 'ada:s3cret:x' "$URL/private" >/dev/null || fail "curl could not reach the server"
assert_eq "1 1 0" "$(count challenge) $(count ok) $(count bad)" "curl's challenge and answer"

printf '%s\n' "curl --digest -u 'ada:s3cret:x' -d 'item=1' '$URL/private'" >"$TEST_TMP/digest.curl.sh"
run_stampede digest -c 3 -n 4 -k -p "$TEST_TMP/digest.curl.sh" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 12 and g("requests.succeeded") == 12 and g("status_codes") == {"200": 12}
g("connections.opened") == 3 ## the answer goes on the challenge's connection
0 < g("phases_ms.challenge.min") <= g("phases_ms.challenge.max") < g("phases_ms.total.max") ## the 401's round trip, apart
EOF
settle_log "$LOG"
assert_eq "13 13 0" "$(count challenge) $(count ok) $(count bad)" "challenges and answers"
assert_eq 12 "$(grep -c '^ok POST /private ' "$LOG")" "answers that repeat the POST"

# ${...} values: the answer goes to the URL the request did, with the same values (the server
# checks the digest's uri against the answer's target).
printf '%s\n' "curl --digest -u 'ada:s3cret:x' '$URL/private?u=\${user}&id=\${uuid}'" >"$TEST_TMP/values.curl.sh"
run_stampede values -c 2 -n 2 -k -p "$TEST_TMP/values.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 4' "answers with values"
settle_log "$LOG"
"$PYTHON" - "$LOG" <<'EOF' || fail "an answer did not repeat its challenge's URL (above)"
import re, sys
lines = [l.split() for l in open(sys.argv[1]) if "?u=" in l]
challenges = [l[2] for l in lines if l[0] == "challenge"]
answers = [l[2] for l in lines if l[0] == "ok"]
assert len(challenges) == 4 and sorted(challenges) == sorted(answers), lines
assert all(re.fullmatch(r"/private\?u=[01]&id=[0-9a-f-]{36}", t) for t in answers), answers
assert len(set(answers)) == 4, answers  # a fresh uuid each request, the same in its answer
EOF

# A wrong password: the answer is refused, the request ends with that 401, and nothing loops.
printf '%s\n' "curl --digest -u 'ada:wrong' '$URL/private'" >"$TEST_TMP/wrong.curl.sh"
run_stampede wrong -c 2 -n 3 -k -p "$TEST_TMP/wrong.curl.sh" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 6 and g("requests.failed") == 6 and g("status_codes") == {"401": 6}
EOF
settle_log "$LOG"
assert_eq 6 "$(grep -c '^bad GET /private wrong-response$' "$LOG")" "refused answers"
assert_eq 23 "$(count challenge)" "challenges after the wrong password"

# --digest --basic (curl keeps both methods): against nginx's auth_basic, which offers only
# Basic, the 401 is answered with Basic; with --digest alone it stays a 401.
mkdir -p "$TEST_TMP/nginx/html/basic"
echo in >"$TEST_TMP/nginx/html/basic/index.html"
printf 'ada:%s\n' "$(openssl passwd -apr1 's3cret:x')" >"$TEST_TMP/htpasswd"
start_nginx "$TEST_TMP/nginx" "location /basic/ { auth_basic \"r\"; auth_basic_user_file $TEST_TMP/htpasswd; }"
printf '%s\n' "curl --digest --basic -u 'ada:s3cret:x' '$HTTP_URL/basic/'" >"$TEST_TMP/both.curl.sh"
run_stampede both -c 2 -n 3 -k -p "$TEST_TMP/both.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("status_codes") == {"200": 6}' "Basic answers"
assert_eq "6 6" "$(count_requests "$ACCESS_LOG" ' 401 "GET /basic/ ') $(count_requests "$ACCESS_LOG" ' 200 "GET /basic/ ')" \
  "nginx's 401s and 200s"
printf '%s\n' "curl --digest -u 'ada:s3cret:x' '$HTTP_URL/basic/'" >"$TEST_TMP/digest-only.curl.sh"
run_stampede digest_only -c 1 -n 2 -k -p "$TEST_TMP/digest-only.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("status_codes") == {"401": 2}' "no Basic without --basic"

# SHA-256.
start_py_server digest256 "$PYTHON" "$HERE/digest_server.py" SHA-256
printf '%s\n' "curl --digest -u 'ada:s3cret:x' 'http://127.0.0.1:$SERVER_PORT/sha'" >"$TEST_TMP/sha.curl.sh"
run_stampede sha -c 1 -n 3 -k -p "$TEST_TMP/sha.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 3' "SHA-256 answers"
settle_log "$SERVER_LOG"
assert_eq "3 3" "$(grep -c '^challenge ' "$SERVER_LOG") $(grep -c '^ok GET /sha ' "$SERVER_LOG")" "SHA-256 log"
pass
