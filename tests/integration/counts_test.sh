#!/usr/bin/env bash
# Every request is counted once in every pacing and protocol mode, each run stopped by Ctrl-C
# mid-flight: the report's completed requests (succeeded + failed) are what the server saw, up to
# the abandoned ones that reached it (completed <= the server's count <= completed + abandoned);
# under --rate every request that came due is completed, abandoned or missed (the capped ones are
# among them). Modes: back to back (-k), --rate, --stages, HTTP/2 -m, WebSocket, --listen, gRPC;
# servers: nginx (HTTP/1.1 and h2c), ws_server.py, grpc_server.py.
# Costs about 16 s: eight runs of about a second each, and the servers' starts.
source "$(dirname "$0")/lib.sh" "$@"
HERE=$(dirname "$(realpath "$0")")

start_nginx "$TEST_TMP/nginx"
H1_URL=$HTTP_URL H1_LOG=$ACCESS_LOG
start_nginx --h2 "$TEST_TMP/nginx-h2"
H2_URL=$HTTP_URL H2_LOG=$ACCESS_LOG
start_py_server ws /usr/bin/python3 "$HERE/ws_server.py" 90
WS_URL=ws://127.0.0.1:$SERVER_PORT WS_LOG=$SERVER_LOG
start_py_server grpc /usr/bin/python3 "$HERE/grpc_server.py"
GRPC_URL=grpc://127.0.0.1:$SERVER_PORT/helloworld.Greeter/SayHello GRPC_LOG=$SERVER_LOG

# stopped NAME ARGS...: the run, interrupted 0.7 s after it started; exit 0 with its JSON report.
stopped() {
  local name=$1
  shift
  interrupt_run "$name" 0.7 "$@" --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("stop_reason") == "interrupted"
g("requests.total") == g("requests.succeeded") + g("requests.failed")
g("requests.total") > 0
PYEOF
}

# served NAME LOG REGEX: the server's count of NAME's requests (LOG's lines matching the extended
# REGEX, once it has logged as many as the report completed, or 5 s passed) lies between the
# report's completed requests and those plus the abandoned ones.
served() {
  local completed abandoned seen
  completed=$(json_eval "$OUT" 'g("requests.total")')
  abandoned=$(json_eval "$OUT" 'g("requests.abandoned")')
  seen=$(await_lines "$2" "$3" "$completed")
  ((completed <= seen && seen <= completed + abandoned)) ||
    fail "$1: the server saw $seen requests; the report says $completed completed and $abandoned abandoned"
  log "$1: server $seen, completed $completed, abandoned $abandoned"
}

stopped closed -c 20 -n 0 -timeout 20 -k -u "$H1_URL/?run=closed"
served closed "$H1_LOG" '/\?run=closed '

stopped rate --rate 3000 -c 30 -z 20s -k -u "$H1_URL/?run=rate"
json_check "$OUT" <<'PYEOF'
g("rate.due") == g("requests.total") + g("requests.abandoned") + g("rate.cap.missed")
g("rate.cap.capped") <= g("rate.due")
PYEOF
served rate "$H1_LOG" '/\?run=rate '

# --rate past what the users can do (-c 2 on answers of 1 ms): at Ctrl-C, hundreds of due
# requests wait for a user, and are missed, not lost (they were counted nowhere before).
start_serve
stopped rate_capped --rate 3000 -c 2 -z 20s -k -u "http://127.0.0.1:$SERVE_PORT/delay/1"
json_check "$OUT" <<'PYEOF'
g("rate.due") == g("requests.total") + g("requests.abandoned") + g("rate.cap.missed")
g("rate.cap.missed") > 100 and g("rate.cap.capped") > 100
PYEOF

stopped stages --stages 2s:20,2s:20 -k -u "$H1_URL/?run=stages"
served stages "$H1_LOG" '/\?run=stages '

stopped shared -c 20 -n 0 -timeout 20 -http2 -m 2 -u "$H2_URL/?run=shared"
served shared "$H2_LOG" '/\?run=shared '

stopped websocket -c 10 -n 0 -timeout 20 -data hi -u "$WS_URL/echo?run=websocket"
served websocket "$WS_LOG" '^/echo\?run=websocket text hi$'

# --listen: each push is a success; none fails, and a stop abandons nothing that was sent.
stopped listen -c 5 --listen -timeout 20 -u "$WS_URL/push?n=100000&every=5&run=listen"
json_check "$OUT" <<'PYEOF'
g("requests.failed") == 0 and g("requests.succeeded") >= 5
PYEOF

stopped grpc -c 5 -n 0 -timeout 20 -u "$GRPC_URL" --proto "$HERE/protos/helloworld.proto" \
  -data '{"name":"counts"}'
served grpc "$GRPC_LOG" '"name": "counts",'
pass
