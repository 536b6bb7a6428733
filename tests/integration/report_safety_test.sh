#!/usr/bin/env bash
# What a server sends cannot lose or garble the report: a Server header that is not UTF-8 and holds
# a terminal escape still gives exit 0, a JSON document that parses, and an escaped text line.
source "$(dirname "$0")/lib.sh" "$@"

FAULT_SERVER=$(dirname "$(realpath "$0")")/fault_server.py
STAMPEDE_LIMIT=${STAMPEDE_LIMIT:-20}

# fault_server.py (it stops itself after 60 s) on a free port; sets FAULT_PORT.
start_py_server fault "$PYTHON" "$FAULT_SERVER" 60
FAULT_PORT=$SERVER_PORT
URL="http://127.0.0.1:$FAULT_PORT/badserver"

run_stampede json -c 2 -n 5 -k -u "$URL?run=json" --output json
expect_rc 0
"$PYTHON" -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$OUT" ||
  fail "json: stdout is not one UTF-8 JSON document"
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 10 and g("requests.failed") == 0
g("server.software") == "evil\ufffd\ufffd\x1b[2J" ## bytes that are not UTF-8 become U+FFFD
EOF
if grep -q $'\x1b' "$OUT"; then fail "json: a raw escape byte reached stdout (it must be written \\u001b)"; fi

run_stampede text -c 2 -n 5 -k -u "$URL?run=text"
expect_rc 0
grep -qxF 'Server Software:        evil\xFF\xFE\x1B[2J' "$OUT" ||
  fail "text: the Server line is not escaped: $(grep -a 'Server Software' "$OUT" | od -c | head -n 3)"
if grep -q $'\x1b' "$OUT"; then fail "text: a raw escape byte reached the terminal"; fi
pass
