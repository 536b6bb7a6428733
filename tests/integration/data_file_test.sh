#!/usr/bin/env bash
# --data-file FILE.csv against nginx: per-request hands the rows out in turn, so each appears
# exactly c*n/rows times; per-user gives user u row u; random stays within the file; a round's
# steps share its row; a row's values stay together (a quoted comma included); a bad file or
# column is a usage error before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
LOG=$TEST_TMP/nginx/fields.log
start_nginx "$TEST_TMP/nginx" "location /t/ {
            access_log $LOG fields;
            return 200 \"ok\\n\";
        }"
{
  echo 'email,name'
  for i in $(seq 0 9); do echo "u$i@example.org,\"Doe, N$i\""; done
} >"$TEST_TMP/users.csv"

# check_rows LOG_FROM EXPECTED_PER_ROW [PER_USER]: every line's email and name are of one row,
# and each row appears EXPECTED_PER_ROW times (a comma list by row number); PER_USER: the URL's
# user number is the row's.
check_rows() {
  tail -n +"$(($1 + 1))" "$LOG" >"$TEST_TMP/rows.log"
  "$PYTHON" - "$TEST_TMP/rows.log" "$2" "${3:-}" <<'EOF'
import collections, re, sys
lines = open(sys.argv[1]).read().splitlines()
expected = [int(n) for n in sys.argv[2].split(",")]
counts = collections.Counter()
for line in lines:
    m = re.match(r'^\d+ 200 "GET /t/(\d+)/u(\d+)%40example.org HTTP/1.1" "Doe, N(\d+)" "-"$', line)
    assert m, "unexpected line: " + line
    user, row, name_row = m.groups()
    assert row == name_row, "a row's values apart: " + line
    if sys.argv[3]:
        assert int(user) % 10 == int(row), "user %s read row %s" % (user, row)
    counts[int(row)] += 1
got = [counts[i] for i in range(10)]
assert got == expected, "rows seen %s, expected %s" % (got, expected)
EOF
}

before=$(wc -l <"$LOG")
run_stampede per_request -c 4 -n 25 -k --data-file "$TEST_TMP/users.csv" --data-mode per-request \
  -u "$HTTP_URL/t/\${user}/\${csv:email}" -H 'X-Id: ${csv:name}' --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 100' "per-request: all succeeded"
settle_log "$LOG"
check_rows "$before" 10,10,10,10,10,10,10,10,10,10 || fail "per-request: rows not handed out in turn"

before=$(wc -l <"$LOG")
run_stampede per_user -c 12 -n 3 -k --data-file "$TEST_TMP/users.csv" \
  -u "$HTTP_URL/t/\${user}/\${csv:email}" -H 'X-Id: ${csv:name}' --output json
expect_rc 0
settle_log "$LOG"
check_rows "$before" 6,6,3,3,3,3,3,3,3,3 per-user || fail "per-user: users did not keep their rows"

before=$(wc -l <"$LOG")
run_stampede random -c 2 -n 50 -k --data-file "$TEST_TMP/users.csv" --data-mode random \
  -u "$HTTP_URL/t/\${user}/\${csv:email}" -H 'X-Id: ${csv:name}' --output json
expect_rc 0
settle_log "$LOG"
tail -n +"$((before + 1))" "$LOG" | grep -oE 'u[0-9]%40' | sort -u >"$TEST_TMP/random.rows"
[[ $(wc -l <"$TEST_TMP/random.rows") -ge 5 ]] || fail "random: 100 draws took $(wc -l <"$TEST_TMP/random.rows") rows"
assert_eq 100 "$(tail -n +"$((before + 1))" "$LOG" | grep -cE '/t/[01]/u[0-9]%40example.org HTTP/1.1" "Doe, N[0-9]"')" "random: requests of the file's rows"

# A flow: the round's two steps read the same row, the next round the next row.
cat >"$TEST_TMP/flow.curl.sh" <<EOF
curl '$HTTP_URL/t/a/\${seq}/\${csv:email}'
curl '$HTTP_URL/t/b/\${seq}/\${csv:email}'
EOF
before=$(wc -l <"$LOG")
run_stampede flow -c 1 -n 12 -k --data-file "$TEST_TMP/users.csv" --data-mode per-request -p "$TEST_TMP/flow.curl.sh"
expect_rc 0
settle_log "$LOG"
tail -n +"$((before + 1))" "$LOG" >"$TEST_TMP/flow.log"
"$PYTHON" - "$TEST_TMP/flow.log" <<'EOF' || fail "a round's steps did not share their row"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 24, len(lines)
for i, line in enumerate(lines):
    m = re.search(r'"GET /t/([ab])/(\d+)/u(\d)%40example.org ', line)
    assert m and m.group(1) == "ab"[i % 2] and int(m.group(2)) == i // 2, line
    assert int(m.group(3)) == (i // 2) % 10, line
EOF

# A value in the URL is percent-encoded; a request whose header would get a CR, LF or NUL from a
# value is not sent: it fails as unsafe, and the other rows' requests go.
printf 'q,h\n"a b&c=d/é",plain\n"z","x\r\nX-Id: forged"\n"y","nul\0"\n' >"$TEST_TMP/odd.csv"
before=$(wc -l <"$LOG")
run_stampede encoded -c 1 -n 6 --data-file "$TEST_TMP/odd.csv" --data-mode per-request \
  -u "$HTTP_URL/t/e?q=\${csv:q}&k=1" -H 'X-Id: ${csv:h}' --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 2 and g("errors.unsafe") == 4' "two sent, four unsafe"
grep -qF 'first unsafe failure: ${csv:h} held CR, LF or NUL for a header of GET' "$ERR" ||
  fail "no unsafe warning: $(cat "$ERR")"
settle_log "$LOG"
assert_eq 2 "$(tail -n +"$((before + 1))" "$LOG" | grep -cF '"GET /t/e?q=a%20b%26c%3Dd%2F%C3%A9&k=1 HTTP/1.1" "plain"')" "encoded values"
assert_eq 2 "$(tail -n +"$((before + 1))" "$LOG" | wc -l)" "requests sent with the odd rows"

# Refused before anything is sent.
before=$(wc -l <"$LOG")
printf 'email,name\na@x,A\nb@x\n' >"$TEST_TMP/short.csv"
run_stampede column -c 1 -n 1 --data-file "$TEST_TMP/users.csv" -u "$HTTP_URL/t/\${csv:mail}"
expect_rc 2
grep -qF "no column 'mail' (its columns: email, name)" "$ERR" || fail "unknown column: $(cat "$ERR")"
run_stampede no_file -c 1 -n 1 -u "$HTTP_URL/t/\${csv:email}"
expect_rc 2
grep -qF 'needs --data-file FILE.csv' "$ERR" || fail "no file: $(cat "$ERR")"
run_stampede short_row -c 1 -n 1 --data-file "$TEST_TMP/short.csv" -u "$HTTP_URL/t/\${csv:email}"
expect_rc 2
grep -qF "short.csv:3: 1 fields, but the header names 2 columns" "$ERR" || fail "short row: $(cat "$ERR")"
run_stampede mode -c 1 -n 1 --data-file "$TEST_TMP/users.csv" --data-mode turns -u "$HTTP_URL/t/\${csv:email}"
expect_rc 2
grep -qF -- "--data-mode must be per-user, per-request or random" "$ERR" || fail "bad mode: $(cat "$ERR")"
run_stampede missing -c 1 -n 1 --data-file "$TEST_TMP/none.csv" -u "$HTTP_URL/t/\${csv:email}"
expect_rc 2
grep -qF "cannot read --data-file" "$ERR" || fail "missing file: $(cat "$ERR")"
settle_log "$LOG"
assert_eq "$before" "$(wc -l <"$LOG")" "requests sent by refused runs"
pass
