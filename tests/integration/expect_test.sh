#!/usr/bin/env bash
# --expect-status, --expect-json, --expect-body, --expect-header and --expect-size against
# `stampede serve`: checks that hold count nothing, one that fails counts every response it
# rejected under its own name (text and JSON), --expect-status replaces -code's status check,
# --expect-header reads HTTP/1.1 and HTTP/2 headers, WebSocket replies are checked as bodies, and
# a check that cannot be read is a usage error.
source "$(dirname "$0")/lib.sh" "$@"
start_serve --threads 1
S=http://127.0.0.1:$SERVE_PORT

# /json is {"code":200,"msg":"ok"}: every check holds.
run_stampede holds -c 2 -n 50 -k -u "$S/json" --output json --expect-status 200 \
  --expect-json '/code=200' --expect-json '/msg~^o' --expect-body '"msg"' --expect-size 23
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 100 and g("requests.failed") == 0
[c["check"] for c in g("checks")] == ["--expect-status 200", "--expect-json /code=200", "--expect-json /msg~^o", "--expect-body \"msg\"", "--expect-size 23"]
all(c["failed"] == 0 for c in g("checks"))
EOF

# One fails: every response is rejected under it, as verify failures.
run_stampede fails -c 2 -n 50 -k -u "$S/json" --output json --expect-json '/msg=okay' --expect-size 23
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.failed") == 100 and g("errors.verify") == 100 and g("status_codes") == {"200": 100}
g("checks") == [{"check": "-v statusCode -code 200", "failed": 0}, {"check": "--expect-json /msg=okay", "failed": 100}, {"check": "--expect-size 23", "failed": 0}]
EOF
grep -q 'first verify failure: /msg is "ok" (--expect-json /msg=okay)' "$ERR" || fail "fails: the first rejection is not named: $(cat "$ERR")"

# Text: the same counts under "Checks failed:".
run_stampede fails_text -c 1 -n 10 -k -u "$S/status/503" --expect-body 'x'
expect_rc 0
grep -qE '^  -v statusCode -code 200 +10$' "$OUT" || fail "fails_text: $(grep -A3 'Checks failed' "$OUT")"
grep -qE '^  --expect-body x +0$' "$OUT" || fail "fails_text: the body check counted a response the status check rejected"

# --expect-status takes over the status: 503s pass it, and the body check then judges them.
run_stampede status_list -c 1 -n 10 -k -u "$S/status/503" --expect-status 200,500-599 --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 10 and g("checks") == [{"check": "--expect-status 200,500-599", "failed": 0}]
EOF

# --expect-header over HTTP/1.1 and HTTP/2: the header kept, matched without case in its name.
run_stampede header_holds -c 2 -n 10 -k -u "$S/json" --expect-header 'content-type: ^application/json' --expect-header 'Server:' --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 20 and [c["failed"] for c in g("checks")] == [0, 0, 0]' "header_holds"
run_stampede header_fails -c 2 -n 10 -k -http2 -u "$S/" --expect-header 'Content-Type: json' --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.failed") == 20 and g("errors.verify") == 20 ## text/plain is not json
g("checks")[1] == {"check": "--expect-header Content-Type: json", "failed": 20}
EOF
grep -q "first verify failure: content-type is 'text/plain" "$ERR" || fail "header_fails: $(cat "$ERR")"

# WebSocket: each reply (the echo of -data) is the body the checks read.
run_stampede websocket -c 2 -n 5 -u "ws://127.0.0.1:$SERVE_PORT/echo" -data '{"a":1}' --expect-json '/a=1' --expect-json '/a=2' --output json
expect_rc 0
json_assert "$OUT" 'g("requests.failed") == 10 and [c["failed"] for c in g("checks")] == [0, 0, 10]' "websocket"

# Checks it cannot read: usage errors, nothing sent.
for bad in "--expect-status 99" "--expect-json data/id=1" "--expect-body ([" "--expect-size -2" "--expect-header Content-Type"; do
  # shellcheck disable=SC2086  # the flag and its value are two words
  run_stampede bad_check -c 1 -n 1 -u "$S/json" $bad
  expect_rc 2
done
pass
