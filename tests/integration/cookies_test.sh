#!/usr/bin/env bash
# Sessions against nginx: each user keeps the cookie its login set and sends it on every later
# request of the flow, a Max-Age=0 removes it, users never see each other's cookies, and
# --no-cookies sends none (nginx's log of each request's Cookie header is the judge).
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx" "location /s/ {
            access_log $TEST_TMP/nginx/cookies.log cookies;
            location = /s/login { add_header Set-Cookie \"sid=\$request_id; Path=/s; HttpOnly\"; return 200 \"in\\n\"; }
            location = /s/account { if (\$cookie_sid = \"\") { return 401; } return 200 \"ok\\n\"; }
            location = /s/logout { add_header Set-Cookie \"sid=gone; Max-Age=0; Path=/s\"; return 200 \"out\\n\"; }
            location = /s/after { if (\$cookie_sid != \"\") { return 409; } return 200 \"clean\\n\"; }
            location = /s/other { add_header Set-Cookie \"elsewhere=1; Path=/elsewhere\"; return 200; }
        }"
COOKIES_LOG=$TEST_TMP/nginx/cookies.log

cat >"$TEST_TMP/session.curl.txt" <<EOF
# each round: log in, use the account twice, log out, check the cookie is gone
curl -X POST '$HTTP_URL/s/login' -d 'user=ada'
curl '$HTTP_URL/s/account'
curl '$HTTP_URL/s/other' -b 'theme=dark'
curl '$HTTP_URL/s/account'
curl -X POST '$HTTP_URL/s/logout'
curl '$HTTP_URL/s/after'
EOF
run_stampede session -c 4 -n 5 -k -p "$TEST_TMP/session.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<EOF
g("requests.total") == 120 and g("requests.succeeded") == 120
g("status_codes") == {"200": 120}
EOF
settle_log "$COOKIES_LOG"
# Replays each connection's requests in order: every request after a login carries exactly the
# sid that login set (and -b's theme on /s/other after it), until the logout removes it.
"$PYTHON" - "$COOKIES_LOG" <<'EOF' || fail "a request did not carry its user's cookie (log above)"
import re, sys
pattern = re.compile(r'^(\d+) (\d+) "(\S+) (\S+) [^"]*" "([^"]*)" "([^"]*)"$')
by_connection, sids = {}, set()
for line in open(sys.argv[1]):
    m = pattern.match(line.strip())
    assert m, line
    by_connection.setdefault(m.group(1), []).append(m.groups()[1:])
assert len(by_connection) == 4, by_connection.keys()
for connection, requests in by_connection.items():
    assert len(requests) == 30, (connection, len(requests))
    sid = None
    for status, method, target, cookie, set_cookie in requests:
        cookie = "" if cookie == "-" else cookie
        want = {"/s/login": "", "/s/account": "sid=" + str(sid), "/s/other": "sid=%s; theme=dark" % sid,
                "/s/logout": "sid=" + str(sid), "/s/after": ""}[target]
        if target == "/s/login":
            want = cookie  # the first round has none; later ones had theirs removed
            assert cookie == "", (connection, target, cookie)
            sid = re.match(r"sid=(\w+);", set_cookie).group(1)
            assert sid not in sids, "two users were given the same sid"
            sids.add(sid)
        if cookie != want or status != "200":
            print("connection %s: %s %s sent %r, wanted %r (status %s)"
                  % (connection, method, target, cookie, want, status), file=sys.stderr)
            sys.exit(1)
assert len(sids) == 20
EOF
lines=$(wc -l <"$COOKIES_LOG")

run_stampede no_cookies -c 2 -n 3 -k --no-cookies -p "$TEST_TMP/session.curl.txt" --output json
expect_rc 0
json_check "$OUT" <<EOF
g("status_codes") == {"200": 24, "401": 12}
EOF
settle_log "$COOKIES_LOG"
# The fourth field between quotes is the request's Cookie header.
assert_eq 0 "$(tail -n +"$((lines + 1))" "$COOKIES_LOG" | awk -F'"' '$4 ~ /sid=/' | wc -l)" \
  "requests carrying sid with --no-cookies"
assert_eq 6 "$(tail -n +"$((lines + 1))" "$COOKIES_LOG" | awk -F'"' '$4 == "theme=dark"' | wc -l)" \
  "requests carrying -b's cookie with --no-cookies"

# A -b cookie file loads each user's jar, as curl's cookie engine does: the login's Set-Cookie
# replaces the file's sid (never both sent), and the logout deletes it.
printf '127.0.0.1\tFALSE\t/s\tFALSE\t0\tsid\tfromfile\n' >"$TEST_TMP/jar.txt"
cat >"$TEST_TMP/file.curl.txt" <<EOF
curl -b jar.txt '$HTTP_URL/s/account'
curl -b jar.txt -X POST '$HTTP_URL/s/login'
curl -b jar.txt '$HTTP_URL/s/account'
curl -b jar.txt -X POST '$HTTP_URL/s/logout'
curl -b jar.txt '$HTTP_URL/s/after'
EOF
lines=$(wc -l <"$COOKIES_LOG")
run_stampede file -c 3 -n 1 -k -p "$TEST_TMP/file.curl.txt" --output json
expect_rc 0
json_assert "$OUT" 'g("status_codes") == {"200": 15}' "a file cookie replaced, then deleted"
settle_log "$COOKIES_LOG"
tail -n +"$((lines + 1))" "$COOKIES_LOG" >"$TEST_TMP/file.log"
"$PYTHON" - "$TEST_TMP/file.log" <<'EOF' || fail "the cookie file's sid was not replaced in the jar (above)"
import re, sys
seen = {}
for line in open(sys.argv[1]):
    connection, status, request, cookie, set_cookie = re.match(r'(\S+) (\d+) "([^"]*)" "([^"]*)" "([^"]*)"', line).groups()
    seen.setdefault(connection, []).append((request.split()[1], cookie, set_cookie))
assert len(seen) == 3, seen
for connection, requests in seen.items():
    (a, first, _), (l, _, set_cookie), (b, second, _), _, (c, last, _) = requests
    sid = re.match(r"sid=(\w+);", set_cookie).group(1)
    assert (a, first) == ("/s/account", "sid=fromfile"), requests
    assert (b, second) == ("/s/account", "sid=" + sid), requests  # not "sid=...; sid=fromfile"
    assert (c, last) == ("/s/after", "-"), requests
EOF
# --no-cookies leaves the file's cookies nowhere to go: the user is told so.
run_stampede file_off -c 1 -n 1 -k --no-cookies -p "$TEST_TMP/file.curl.txt"
expect_rc 0
grep -qF -- "--no-cookies: the cookies of the -b files are not sent" "$ERR" || fail "no warning: $(cat "$ERR")"
pass
