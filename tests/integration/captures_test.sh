#!/usr/bin/env bash
# Captures against nginx: a login's JSON token, an id from an array, a header's part and a body's
# regex group reach the later steps of the same user and round (each value nginx sent comes back
# exactly once, where the flow puts it); a capture that finds nothing fails its step as `capture`
# and the user skips the rest of its round; --capture carries a cursor from one round to the
# next; a bad capture is a usage error before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
LOG=$TEST_TMP/nginx/captures.log
start_nginx "$TEST_TMP/nginx" "access_log $LOG captures;
        location = /login {
            add_header X-Session \"s-\$request_id\";
            default_type application/json;
            return 200 '{\"token\":\"\$request_id\",\"items\":[{\"id\":\"i-\$request_id\"}]}';
        }
        location = /page {
            default_type text/html;
            return 200 '<form><input name=\"csrf\" value=\"\$request_id\"></form>';
        }
        location /api/ { return 200 \"ok\\n\"; }
        location = /empty { default_type application/json; return 200 '{\"nothing\":true}'; }
        location = /next { default_type application/json; return 200 '{\"next\":\"\$request_id\"}'; }"

cat >"$TEST_TMP/login.curl.sh" <<EOF
# stampede: capture token = json /token
# stampede: capture item = json /items/0/id
# stampede: capture session = header X-Session s-(.*)
curl '$HTTP_URL/login' -d 'user=\${user}'
# stampede: capture csrf = body name="csrf" value="([0-9a-f]+)"
curl '$HTTP_URL/page' -H 'Authorization: Bearer \${token}'
curl '$HTTP_URL/api/\${item}?csrf=\${csrf}' -H 'Authorization: Bearer \${token}' -H 'X-Session: \${session}'
EOF
run_stampede flow -c 4 -n 5 -k -p "$TEST_TMP/login.curl.sh" --output json
expect_rc 0
json_check "$OUT" <<EOF
g("requests.total") == 60 and g("requests.succeeded") == 60
g("errors.capture") == 0
EOF
settle_log "$LOG"
"$PYTHON" - "$LOG" <<'EOF' || fail "captured values did not reach the later steps (above)"
import re, sys
line_re = re.compile(r'^200 "(\w+) (\S+) HTTP/1.1" "([^"]*)" "([^"]*)" ([0-9a-f]{32})$')
logins, pages, apis = set(), {}, []
for line in open(sys.argv[1]):
    m = line_re.match(line.strip())
    assert m, "unexpected line: " + line
    method, target, authorization, session, request_id = m.groups()
    if target == "/login":
        assert method == "POST" and authorization == "-", line
        logins.add(request_id)
    elif target == "/page":
        pages[request_id] = authorization
    else:
        apis.append((target, authorization, session))
assert len(logins) == 20 and len(pages) == 20 and len(apis) == 20, (len(logins), len(pages), len(apis))
# Each login's token went to exactly one page, and its item and session to exactly one API call,
# with the csrf of the page that the same token fetched.
assert sorted(pages.values()) == sorted("Bearer " + t for t in logins), "page tokens"
token_of_page = {page: auth[len("Bearer "):] for page, auth in pages.items()}
used = set()
for target, authorization, session in apis:
    m = re.match(r"^/api/i-([0-9a-f]{32})\?csrf=([0-9a-f]{32})$", target)
    assert m, target
    item, csrf = m.groups()
    token = authorization[len("Bearer "):]
    assert token in logins and item == token and session == token, (target, authorization, session)
    assert token_of_page[csrf] == token, "csrf from another user's page: " + target
    used.add(token)
assert used == logins, "every login's values used once"
EOF

# The login finds no token: its step fails as capture, and the user goes to its next round
# without sending the steps that need it.
cat >"$TEST_TMP/missing.curl.sh" <<EOF
# stampede: capture token = json /token
curl '$HTTP_URL/empty'
curl '$HTTP_URL/api/never' -H 'Authorization: Bearer \${token}'
EOF
before=$(wc -l <"$LOG")
run_stampede missing -c 2 -n 3 -k -p "$TEST_TMP/missing.curl.sh" --output json
expect_rc 0  # failed requests are in the report; only a threshold makes them the exit status
json_check "$OUT" <<EOF
g("requests.total") == 6 and g("requests.failed") == 6
g("errors.capture") == 6 and g("status_codes")["200"] == 6
EOF
grep -qF 'first capture failure: GET '"$HTTP_URL"'/empty found nothing for ${token}' "$ERR" ||
  fail "no warning naming the capture: $(cat "$ERR")"
settle_log "$LOG"
assert_eq 6 "$(tail -n +"$((before + 1))" "$LOG" | grep -c '"GET /empty ')" "logins tried"
assert_eq 0 "$(tail -n +"$((before + 1))" "$LOG" | grep -c '/api/never')" "steps after a failed capture"

# --capture on one request: each round sends the cursor the previous round's response gave.
before=$(wc -l <"$LOG")
run_stampede cursor -c 1 -n 4 -k -u "$HTTP_URL/next?after=\${cursor}" --capture 'cursor = json /next' --output json
expect_rc 0
settle_log "$LOG"
tail -n +"$((before + 1))" "$LOG" >"$TEST_TMP/cursor.log"
"$PYTHON" - "$TEST_TMP/cursor.log" <<'EOF' || fail "the cursor did not follow the responses (above)"
import re, sys
previous = ""
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 4, lines
for line in lines:
    m = re.match(r'^200 "GET /next\?after=([0-9a-f]*) HTTP/1.1" "-" "-" ([0-9a-f]{32})$', line)
    assert m and m.group(1) == previous, (line, previous)
    previous = m.group(2)
EOF

# Refused before anything is sent, each with one line naming the fault.
before=$(wc -l <"$LOG")
printf '%s\n' "curl '$HTTP_URL/login'" '# stampede: capture token = json /token' >"$TEST_TMP/trailing.curl.sh"
printf '%s\n' '# stampede: keep token = json /token' "curl '$HTTP_URL/login'" >"$TEST_TMP/unknown.curl.sh"
run_stampede trailing -c 1 -n 1 -p "$TEST_TMP/trailing.curl.sh"
expect_rc 2
grep -qF "must come before the curl command" "$ERR" || fail "trailing: $(cat "$ERR")"
run_stampede unknown_directive -c 1 -n 1 -p "$TEST_TMP/unknown.curl.sh"
expect_rc 2
grep -qF "unknown '# stampede:' line" "$ERR" || fail "unknown directive: $(cat "$ERR")"
run_stampede flow_flag -c 1 -n 1 -p "$TEST_TMP/login.curl.sh" --capture 'x = json /x'
expect_rc 2
grep -qF -- "--capture applies to a run of one request" "$ERR" || fail "flow --capture: $(cat "$ERR")"
run_stampede builtin -c 1 -n 1 -u "$HTTP_URL/login" --capture 'seq = json /token'
expect_rc 2
grep -qF 'is a variable stampede gives' "$ERR" || fail "builtin name: $(cat "$ERR")"
run_stampede pointer -c 1 -n 1 -u "$HTTP_URL/login" --capture 'token = json token'
expect_rc 2
grep -qF 'is not a JSON Pointer' "$ERR" || fail "bad pointer: $(cat "$ERR")"
run_stampede unknown_var -c 1 -n 1 -u "$HTTP_URL/api/\${tokn}" --capture 'token = json /token'
expect_rc 2
grep -qF 'captured: ${token}' "$ERR" || fail "unknown variable: $(cat "$ERR")"
settle_log "$LOG"
assert_eq "$before" "$(wc -l <"$LOG")" "requests sent by refused runs"
pass
