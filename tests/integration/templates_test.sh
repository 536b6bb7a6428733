#!/usr/bin/env bash
# Variables in requests against nginx: ${user} and ${seq} name each request exactly once,
# ${uuid} never repeats, ${rand:A-B} stays in its range, a body's variables keep Content-Length
# true on kept-alive connections, a curl file's single-quoted variables render too, and a
# variable stampede does not know is a usage error before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx" "location /t/ {
            access_log $TEST_TMP/nginx/fields.log fields;
            return 200 \"ok\\n\";
        }"
FIELDS_LOG=$TEST_TMP/nginx/fields.log

run_stampede url -c 4 -n 25 -k -u "$HTTP_URL/t/\${user}/\${seq}?id=\${uuid}&r=\${rand:1-3}&lit=\$\${x}" \
  -H 'X-Id: ${user}-${seq}' -data 'round=${seq}&pad=${rand:1-1000000}' --output json
expect_rc 0
json_check "$OUT" <<EOF
g("requests.total") == 100 and g("requests.succeeded") == 100
g("connections.opened") == 4
EOF
settle_log "$FIELDS_LOG"
"$PYTHON" - "$FIELDS_LOG" <<'EOF' || fail "the rendered requests are not what their variables say (above)"
import re, sys
seen, uuids = set(), set()
line_re = re.compile(r'^\d+ (\d+) "POST /t/(\d+)/(\d+)\?id=([0-9a-f-]{36})&r=(\d)&lit=\$\{x\} HTTP/1.1" "([^"]*)" "(\d+)"$')
for line in open(sys.argv[1]):
    m = line_re.match(line.strip())
    assert m, "unexpected line: " + line
    status, user, seq, uuid, r, x_id, length = m.groups()
    assert status == "200", line
    assert x_id == "%s-%s" % (user, seq), line
    assert 1 <= int(r) <= 3, line
    assert int(user) < 4 and int(seq) < 25, line
    # round=<seq>&pad=<1 to 7 digits>: the length nginx read is what stampede announced
    assert len("round=%s&pad=" % seq) + 1 <= int(length) <= len("round=%s&pad=" % seq) + 7, line
    seen.add((user, seq))
    uuids.add(uuid)
assert len(seen) == 100, "user/seq pairs: %d" % len(seen)
assert len(uuids) == 100, "distinct uuids: %d" % len(uuids)
EOF
lines=$(wc -l <"$FIELDS_LOG")

cat >"$TEST_TMP/flow.curl.txt" <<EOF
curl '$HTTP_URL/t/order/\${user}-\${seq}' -H 'X-Id: \${uuid}'
curl "$HTTP_URL/t/plain" -H 'X-Id: literal \$\${seq}'
EOF
run_stampede flow -c 2 -n 3 -k -p "$TEST_TMP/flow.curl.txt" --output json
expect_rc 0
settle_log "$FIELDS_LOG"
assert_eq 6 "$(tail -n +"$((lines + 1))" "$FIELDS_LOG" | grep -cE '"GET /t/order/[01]-[012] HTTP/1.1" "[0-9a-f-]{36}"')" "rendered curl steps"
assert_eq 6 "$(tail -n +"$((lines + 1))" "$FIELDS_LOG" | grep -cF '"GET /t/plain HTTP/1.1" "literal ${seq}"')" "literal \$\${ steps"

before=$(wc -l <"$FIELDS_LOG")
run_stampede unknown -c 1 -n 1 -u "$HTTP_URL/t/\${nope}"
expect_rc 2
grep -qF 'URL: unknown variable ${nope}' "$ERR" || fail "no clear error: $(cat "$ERR")"
settle_log "$FIELDS_LOG"
assert_eq "$before" "$(wc -l <"$FIELDS_LOG")" "requests sent by refused runs"
pass
