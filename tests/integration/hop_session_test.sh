#!/usr/bin/env bash
# A session carries on through the requests an exchange makes after its first: a login that
# answers 302 with Set-Cookie leads to a page that gets that cookie, as a browser's redirect does;
# a captured token in a header reaches a redirect's hop as rendered (never as `${token}`); a
# 307's hop sends the same `${uuid}` the request did, not a new one. Against nginx, whose logs
# show what each request carried.
source "$(dirname "$0")/lib.sh" "$@"
DIR=$TEST_TMP/nginx
start_nginx "$DIR" "absolute_redirect off;
  location = /login { access_log $DIR/login.log cookies; add_header Set-Cookie \"sid=\$request_id; Path=/\" always; return 302 /home; }
  location = /home { access_log $DIR/login.log cookies; return 200 'home'; }
  location = /token { access_log $DIR/items.log captures; add_header X-Token \$request_id always; return 200 'token'; }
  location = /items { access_log $DIR/items.log captures; return 301 /items/; }
  location = /items/ { access_log $DIR/items.log captures; return 200 'items'; }
  location = /keep { access_log $DIR/keep.log fields; return 307 /kept; }
  location = /kept { access_log $DIR/keep.log fields; return 200 'kept'; }"

# The login's 302 sets the cookie; the page it leads to gets it, on the same exchange.
printf '%s\n' "curl -L -d 'user=ada' $HTTP_URL/login" >"$TEST_TMP/login.curl.sh"
run_stampede login -c 3 -n 4 -k -p "$TEST_TMP/login.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 12 and g("status_codes") == {"200": 12}' "logins"
settle_log "$DIR/login.log"
"$PYTHON" - "$DIR/login.log" <<'EOF' || fail "the redirect's hop did not carry the login's cookie"
import re, sys
last_sid, homes, bad = {}, 0, []
for line in open(sys.argv[1]):
    conn, status, request, cookie, set_cookie = re.match(r'(\S+) (\d+) "([^"]*)" "([^"]*)" "([^"]*)"', line).groups()
    if request.startswith("POST /login "):
        last_sid[conn] = re.match(r"sid=(\w+);", set_cookie).group(1)
    elif request.startswith("GET /home "):
        homes += 1
        if cookie != "sid=" + last_sid.get(conn, "?"):
            bad.append(line.strip())
assert homes == 12, homes
assert not bad, bad
EOF

# A token captured from a header goes to /items, whose 301 leads to /items/: both carry it.
cat >"$TEST_TMP/items.curl.sh" <<EOF
# stampede: capture token = header X-Token
curl $HTTP_URL/token
curl -L -H 'Authorization: Bearer \${token}' $HTTP_URL/items
EOF
run_stampede items -c 2 -n 3 -k -p "$TEST_TMP/items.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 12 and g("errors.capture") == 0' "token flows"
settle_log "$DIR/items.log"
"$PYTHON" - "$DIR/items.log" <<'EOF' || fail "the hop did not carry the captured token (above)"
import re, sys
token, hops, bad = None, 0, []
for line in open(sys.argv[1]):  # each user's round is token, /items, /items/ in order
    status, request, authorization, _, request_id = re.match(r'(\d+) "([^"]*)" "([^"]*)" "([^"]*)" (\S+)', line).groups()
    if request.startswith("GET /token "):
        continue
    hops += request.startswith("GET /items/ ")
    if not re.fullmatch(r"Bearer [0-9a-f]{32}", authorization):
        bad.append(line.strip())
assert hops == 6, hops
assert not bad, bad
EOF
# Each token sent is one nginx gave out.
tokens=$(awk '$2 == "\"GET" && $3 == "/token" {print $NF}' "$DIR/items.log" | sort -u)
sent=$(sed -nE 's/.*"Bearer ([0-9a-f]+)".*/\1/p' "$DIR/items.log" | sort -u)
[[ -n $sent && $(comm -13 <(echo "$tokens") <(echo "$sent")) == "" ]] ||
  fail "tokens sent that nginx never gave: $(comm -13 <(echo "$tokens") <(echo "$sent"))"

# A 307 keeps the request: its hop sends the very uuid the request did.
printf '%s\n' "curl -L -H 'X-Id: \${uuid}' -d 'a=1' $HTTP_URL/keep" >"$TEST_TMP/keep.curl.sh"
run_stampede keep -c 2 -n 3 -k -p "$TEST_TMP/keep.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 6' "kept requests"
settle_log "$DIR/keep.log"
"$PYTHON" - "$DIR/keep.log" <<'EOF' || fail "the 307's hop sent another uuid (above)"
import re, sys
first, pairs = {}, 0
for line in open(sys.argv[1]):
    conn, status, request, x_id = re.match(r'(\S+) (\d+) "([^"]*)" "([^"]*)"', line).groups()
    assert re.fullmatch(r"[0-9a-f-]{36}", x_id), line
    if request.startswith("POST /keep "):
        first[conn] = x_id
    else:
        assert request.startswith("POST /kept "), line
        assert x_id == first.pop(conn), line
        pairs += 1
assert pairs == 6, pairs
EOF
pass
