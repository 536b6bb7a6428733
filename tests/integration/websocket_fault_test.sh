#!/usr/bin/env bash
# WebSocket failures classified by what arrived first, against ws_fault_server.py's raw frames: a
# frame header declaring 2^62 bytes is too_big at once, a close frame then a reset or a FIN is
# closed (by the server), close code 999 is a protocol failure; a server that never closes its end
# of the TCP connection after either side's close frame costs a second, not -t. Under --listen, a
# 3 MiB push is a failed message and an upgrade never answered is abandoned at Ctrl-C.
# Costs about 6 s: four runs of 4 messages, two of them waiting a second for the server's close,
# and two --listen runs of a second each.
source "$(dirname "$0")/lib.sh" "$@"

start_py_server ws_fault "$PYTHON" "$(dirname "$(realpath "$0")")/ws_fault_server.py"
WS=ws://127.0.0.1:$SERVER_PORT

# fault_run NAME PATH: 4 users, one message each, each on its own connection.
fault_run() {
  run_stampede "$1" -c 4 -n 1 -t 10 -u "$WS/$2?run=$1" -data hi --output json
  expect_rc 0
  assert_eq 4 "$(await_lines "$SERVER_LOG" "run=$1 message" 4)" "$1: messages the server read"
}

fault_run huge huge
json_check "$OUT" <<'PYEOF'
g("requests.failed") == 4 and g("errors.too_big") == 4
g("connections.failed_by_kind") == {"too_big": 4}
g("duration_s") < 8 ## no wait for -t: a second at most
PYEOF
grep -qF "first too_big failure: The WebSocket message exceeded the locally configured limit" "$ERR" ||
  fail "huge: $(grep -v "│" "$ERR" | head -3)"

fault_run closereset closereset
json_check "$OUT" <<'PYEOF'
g("requests.failed") == 4 and g("errors.closed") == 4
g("connections.closed_by_server") == 4 and g("connections.failed_by_kind") == {}
PYEOF

fault_run closefin closefin
json_check "$OUT" <<'PYEOF'
g("requests.failed") == 4 and g("errors.closed") == 4 and g("connections.closed_by_server") == 4
PYEOF

fault_run close999 close999
json_check "$OUT" <<'PYEOF'
g("requests.failed") == 4 and g("errors.protocol") == 4
g("connections.failed_by_kind") == {"protocol": 4}
g("duration_s") < 8
PYEOF
grep -qF "first protocol failure: The WebSocket close frame reason code was invalid" "$ERR" ||
  fail "close999: $(grep -v "│" "$ERR" | head -3)"

# --listen: a push over --max-message is a failed message, as the Connections line says.
run_stampede bigpush -c 2 -z 1s -t 10 --listen -u "$WS/bigpush" --output json
expect_rc 0
json_check "$OUT" <<'PYEOF'
g("requests.failed") == 2 and g("errors.too_big") == 2 and g("requests.succeeded") == 0
g("connections.failed_by_kind") == {"too_big": 2}
PYEOF

# --listen: upgrades still unanswered at Ctrl-C are abandoned, as the messages of -data would be.
interrupt_run stall 0.5 -c 3 -n 0 -timeout 30 -t 10 --listen -u "$WS/stall" --output json
expect_rc 0
json_check "$OUT" <<'PYEOF'
g("requests.abandoned") == 3 and g("requests.total") == 0
PYEOF
pass
