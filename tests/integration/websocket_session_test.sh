#!/usr/bin/env bash
# A flow's session goes on over WebSocket: a login's cookie (nginx) rides in each user's upgrade
# to a WebSocket server (ws_server.py), `${...}` values fill the upgrade's URL and each message,
# and a capture from the echoed reply reaches the next HTTP request; a capture of a header (a
# WebSocket reply has none) is refused before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
WS_PYTHON=/usr/bin/python3  # Debian's python3-websockets is the system interpreter's
"$WS_PYTHON" -c 'import websockets.legacy.server' 2>/dev/null ||
  fail "$WS_PYTHON cannot import websockets: apt-get install python3-websockets"
start_py_server ws "$WS_PYTHON" "$(dirname "$(realpath "$0")")/ws_server.py"
WS_PORT=$SERVER_PORT
WS_LOG=$SERVER_LOG
DIR=$TEST_TMP/nginx
start_nginx "$DIR" "
  location = /login { access_log $DIR/login.log cookies; add_header Set-Cookie \"sid=\$request_id; Path=/\" always; return 200 'in'; }
  location = /after { access_log $DIR/after.log fields; return 200 'after'; }"

cat >"$TEST_TMP/flow.curl.sh" <<EOF
curl -d 'user=ada' $HTTP_URL/login
# stampede: capture who = json /user
curl 'ws://127.0.0.1:$WS_PORT/echo?u=\${user}' -d '{"user":"u\${user}","round":\${seq}}'
curl -H 'X-Id: \${who}' $HTTP_URL/after
EOF
run_stampede flow -c 3 -n 4 -k -p "$TEST_TMP/flow.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 36 and g("requests.failed") == 0' "36 steps"
settle_log "$WS_LOG"
settle_log "$DIR/after.log"
"$PYTHON" - "$WS_LOG" "$DIR/login.log" "$DIR/after.log" <<'EOF' || fail "the session did not go on over WebSocket (above)"
import json, re, sys
ws = [line.split(" ", 2) for line in open(sys.argv[1]).read().splitlines()]  # target, kind, rest
sids = {re.search(r"sid=(\w+)", line).group(1) for line in open(sys.argv[2])}
opens = {(t, rest) for t, kind, rest in ws if kind == "open"}
assert sorted(t for t, _ in opens) == ["/echo?u=0", "/echo?u=1", "/echo?u=2"], opens
cookies = dict(((t, rest.split(" ", 1)[0]), rest.split(" ", 1)[1]) for t, kind, rest in ws if kind == "cookie")
assert set(cookies) == opens, (cookies, opens)  # each upgrade carried a cookie...
assert all(v.startswith("sid=") and v[4:] in sids for v in cookies.values()), cookies
assert len(set(cookies.values())) == 3, cookies  # ...its own user's
texts = [(t, json.loads(rest)) for t, kind, rest in ws if kind == "text"]
assert sorted((t, m["user"], m["round"]) for t, m in texts) == sorted(
    (f"/echo?u={u}", f"u{u}", r) for u in range(3) for r in range(4)), texts
after = sorted(re.search(r'"(u\d)"', line).group(1) for line in open(sys.argv[3]))
assert after == sorted(["u0", "u1", "u2"] * 4), after  # the captured reply, each round
EOF

# A WebSocket reply has no headers: capturing one is refused, and nothing is sent.
printf '%s\n' '# stampede: capture x = header X-A' "curl ws://127.0.0.1:$WS_PORT/echo?run=refused -d hi" \
  >"$TEST_TMP/refused.curl.sh"
run_stampede refused -c 1 -n 1 -p "$TEST_TMP/refused.curl.sh"
expect_rc 2
grep -qF "a WebSocket reply is a message, without headers" "$ERR" || fail "no clear error: $(cat "$ERR")"
settle_log "$WS_LOG"
grep -q "run=refused" "$WS_LOG" && fail "a refused run opened a connection"
pass
