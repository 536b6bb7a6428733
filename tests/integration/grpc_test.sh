#!/usr/bin/env bash
# gRPC calls from the command line against a real gRPC server (python3-grpcio, grpc_server.py) and
# stampede serve's echo: exact call counts from the server's log, statuses counted by name,
# metadata and grpc-timeout received, -v json and the --expect-* checks on the decoded answer,
# -m, grpcs:// (TLS), server, client and bidirectional streams a message an exchange (--stream,
# each message counted against the server's log), and the usage errors that send nothing.
source "$(dirname "$0")/lib.sh" "$@"

HERE=$(dirname "$(realpath "$0")")
PROTO=$HERE/protos/helloworld.proto
GRPC_PY=/usr/bin/python3 # Debian installs grpcio for the system interpreter only
"$GRPC_PY" -c 'import grpc' 2>/dev/null || fail "python3-grpcio is not installed (apt-get install python3-grpcio)"
SAY=helloworld.Greeter/SayHello

# start_grpc CASE [ARGS...]: grpc_server.py for one case (its own port file and log).
start_grpc() {
  local name=$1
  shift
  start_py_server "grpc-$name" "$GRPC_PY" "$HERE/grpc_server.py" "$@"
}

# calls_logged NAME N: how many calls with request name NAME the server logged (a JSON line each,
# written as the call arrives), once N have been.
calls_logged() {
  await_lines "$SERVER_LOG" "\"name\": \"$1\"," "$2"
}

case_unary() {  # c × n calls, each one the server logged, all OK
  start_grpc unary
  run_stampede unary -c 5 -n 20 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"unary"}' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 100 and g("requests.failed") == 0
g("grpc_status_codes") == {"OK": 100} and g("status_codes") == {"200": 100}
g("connections.protocols") == {"h2c": 5}
PYEOF
  assert_eq 100 "$(calls_logged unary 100)" "unary: calls the server logged"
}

case_statuses() {  # a failing call is counted by its code's name, and fails unless -code says so
  start_grpc statuses
  run_stampede fail -c 2 -n 5 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"fail:UNAVAILABLE:down for now"}' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.failed") == 10 and g("errors.verify") == 10
g("grpc_status_codes") == {"UNAVAILABLE": 10}
PYEOF
  grep -q "gRPC status UNAVAILABLE (down for now), not -code OK" "$ERR" || fail "fail: $(head -c 500 "$ERR")"
  run_stampede expected -c 2 -n 5 -code 14 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"fail:14"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 10 and g("grpc_status_codes") == {"UNAVAILABLE": 10}'
  assert_eq 10 "$(calls_logged "fail:14" 10)" "expected: calls the server logged"
}

case_metadata() {  # -H is metadata, with ${...} values; -t is grpc-timeout; the message as written
  start_grpc metadata
  run_stampede metadata -c 1 -n 3 -t 7 -H 'X-Tenant: blue' -H 'X-Round: ${user}-${seq}' \
    -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" -data '{"name":"meta"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 3'
  "$PYTHON" - "$SERVER_LOG" <<'PYEOF' || fail "metadata: the server did not get the metadata and deadline: $(cat "$SERVER_LOG")"
import json, sys
calls = [json.loads(line) for line in open(sys.argv[1])]
assert len(calls) == 3, calls
for call in calls:
    assert ["x-tenant", "blue"] in call["metadata"], call
    assert 6 < call["timeout"] <= 7, call
    assert call["name"] == "meta", call
rounds = sorted(value for call in calls for key, value in call["metadata"] if key == "x-round")
assert rounds == ["0-0", "0-1", "0-2"], rounds
PYEOF
}

case_deadline() {  # a call past -t: DEADLINE_EXCEEDED from the server, or our timeout
  start_grpc deadline
  run_stampede deadline -c 2 -n 2 -t 0.5 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"sleep:3000"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.failed") == 4 and g("requests.succeeded") == 0'
  json_assert "$OUT" 'g("errors.timeout") + g("grpc_status_codes", {}).get("DEADLINE_EXCEEDED", 0) == 4'
}

case_json() {  # -v json reads the decoded answer's code
  start_grpc json
  run_stampede json -c 2 -n 3 -v json -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"code:200"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 6'
  run_stampede json-no -c 1 -n 2 -v json -code 201 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" \
    --proto "$PROTO" -data '{"name":"code:200"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.failed") == 2 and g("errors.verify") == 2'
}

case_expect() {  # --expect-json and --expect-body read the decoded answer; a failed call fails its status first
  start_grpc expect
  run_stampede expect -c 2 -n 5 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"checked"}' --expect-json '/message=Hello checked' --expect-body '"code":\s*200' \
    --expect-json '/message~^Bye' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.failed") == 10 and g("grpc_status_codes") == {"OK": 10}
[c["failed"] for c in g("checks")] == [0, 0, 10, 0] ## only /message~^Bye fails (the --expect-json checks come before --expect-body)
PYEOF
  assert_eq 10 "$(calls_logged checked 10)" "expect: calls the server logged"
  run_stampede expect_down -c 1 -n 3 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"fail:UNAVAILABLE"}' --expect-json '/message' --output json
  expect_rc 0
  json_assert "$OUT" '[c["failed"] for c in g("checks")] == [3, 0]' "a failed call counts under its status check"
}

case_shared() {  # -m: 20 users on 2 connections
  start_grpc shared
  run_stampede shared -c 20 -n 10 -m 2 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"shared"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 200 and g("connections.opened") == 2'
  assert_eq 200 "$(calls_logged shared 200)" "shared: calls the server logged"
}

case_tls() {  # grpcs://: h2 by ALPN
  make_cert "$TEST_TMP"
  start_grpc tls --tls "$TEST_TMP/cert.pem" "$TEST_TMP/key.pem"
  run_stampede tls -c 2 -n 5 --insecure -u "grpcs://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"tls"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 10 and g("connections.protocols") == {"h2": 2}'
  # -m: 8 users on one TLS connection (OpenSSL on the socket, not Asio's stream)
  run_stampede tls-m -c 8 -n 5 -m 1 --insecure -u "grpcs://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"tls-m"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 40 and g("connections.protocols") == {"h2": 1}'
  assert_eq 40 "$(calls_logged tls-m 40)" "tls-m: calls the server logged"
}

case_stream() {  # a server-streaming method: its answers are whole whatever their number
  start_grpc stream
  run_stampede stream -c 2 -n 2 -u "grpc://127.0.0.1:$SERVER_PORT/helloworld.Greeter/SayHellos" \
    --proto "$PROTO" -data '{"name":"stream","count":4}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 4 and g("grpc_status_codes") == {"OK": 4}'
}

# --stream: each answer message of a server stream is one request, timed from the one before it;
# every message the server logged handing over is counted once, and the checks read each.
case_stream_messages() {
  start_grpc stream_messages
  local url="grpc://127.0.0.1:$SERVER_PORT/helloworld.Greeter/SayHellos"
  # Each user reads its call's 10 messages; the call's OK end ends the user's reading.
  run_stampede stream_ended -c 3 -n 20 --stream -u "$url" --proto "$PROTO" \
    -data '{"name":"ended","count":10}' -v json --expect-json '/message~^Hello ended #[0-9]$' \
    --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 30 and g("requests.failed") == 0 and g("grpc_status_codes") == {"OK": 30}
g("events.unit") == "message" and g("events.received") == 30
g("events.streams.opened") == 3 and g("events.streams.ended_by_server") == 3
PYEOF
  assert_eq 30 "$(await_lines "$SERVER_LOG" '"streamed": "ended",' 30)" "stream_ended: messages the server sent"
  # --reconnect calls again when a call ends: 3 calls a user, each read to its last message.
  run_stampede stream_again -c 3 -n 30 --stream --reconnect -u "$url" --proto "$PROTO" \
    -data '{"name":"again","count":10}' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 90 and g("events.received") == 90
g("events.streams.opened") == 9 and g("events.streams.ended_by_server") == 6 ## the third calls' ends are not waited for
PYEOF
  assert_eq 9 "$(calls_logged again 9)" "stream_again: calls the server logged"
  assert_eq 90 "$(await_lines "$SERVER_LOG" '"streamed": "again",' 90)" "stream_again: messages the server sent"
  # A call the server fails: each attempt is a request failed by its status, counted by name.
  run_stampede stream_failed -c 2 -n 3 --stream -u "$url" --proto "$PROTO" \
    -data '{"name":"fail:NOT_FOUND"}' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.failed") == 6 and g("errors.verify") == 6 and g("grpc_status_codes") == {"NOT_FOUND": 6}
PYEOF
  # No answer within -t: each wait fails as a timeout, within its second.
  run_stampede stream_stalled -c 2 -n 1 -t 1 --stream -u "$url" --proto "$PROTO" \
    -data '{"name":"sleep:5000"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.failed") == 2 and g("errors.timeout") == 2'
  awk -v t="$ELAPSED" 'BEGIN { exit !(t < 4) }' || fail "stream_stalled: took ${ELAPSED}s (-t 1)"
}

# --stream on a bidirectional method: each exchange sends a message on the user's one call and
# reads the answer to it; the server's log has every message it received and answered, once.
case_bidi() {
  start_grpc bidi
  local url="grpc://127.0.0.1:$SERVER_PORT/helloworld.Greeter/Chat"
  run_stampede bidi -c 3 -n 20 --stream -u "$url" --proto "$PROTO" -data '{"name":"chat"}' \
    -v json --expect-json '/message~^Hello chat #[0-9]+$' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 60 and g("requests.failed") == 0 and g("grpc_status_codes") == {"OK": 60}
g("events.unit") == "message" and g("events.received") == 60 and g("events.streams.opened") == 3
PYEOF
  assert_eq 3 "$(calls_logged chat 3)" "bidi: calls the server logged"
  assert_eq 60 "$(await_lines "$SERVER_LOG" '"received": "chat",' 60)" "bidi: messages the server received"
  assert_eq 60 "$(await_lines "$SERVER_LOG" '"streamed": "chat",' 60)" "bidi: messages the server answered"
  # A bidirectional method needs --stream: its calls have no single answer.
  run_stampede bidi_whole -c 1 -n 1 -u "$url" --proto "$PROTO" -data '{"name":"x"}'
  expect_rc 2
  grep -q "is bidirectional: give --stream" "$ERR" || fail "bidi_whole: $(head -c 500 "$ERR")"
}

# --stream on a client-streaming method: each user's call sends -n messages, each an exchange,
# and the last one's exchange reads the call's one answer; the server's log has every message.
case_collect() {
  start_grpc collect
  local url="grpc://127.0.0.1:$SERVER_PORT/helloworld.Greeter/Collect"
  run_stampede collect -c 3 -n 20 -t 5 --stream -u "$url" --proto "$PROTO" -data '{"name":"up"}' \
    -v json --expect-json '/message~^Hello up \(20 messages\)$' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 60 and g("requests.failed") == 0 and all(c["failed"] == 0 for c in g("checks"))
g("grpc_status_codes") == {"OK": 3} and g("status_codes") == {"200": 3}
g("events.unit") == "sent message" and g("events.received") == 60 and g("events.unanswered") == 0
g("events.streams.opened") == 3 and g("events.streams.ended_by_server") == 3
g("server.document_length") > 0 ## the answer's, not a sent message's nothing
PYEOF
  assert_eq 3 "$(calls_logged up 3)" "collect: calls the server logged"
  assert_eq 60 "$(await_lines "$SERVER_LOG" '"received": "up",' 60)" "collect: messages the server received"
  # A call that streams has no content-length: its first message's would be wrong.
  if grep '"name": "up",' "$SERVER_LOG" | grep -q content-length; then
    fail "collect: a streaming call sent content-length: $(grep -m1 '"name": "up",' "$SERVER_LOG")"
  fi
  # The call's answer is checked: one failed by the server fails the exchange that read it.
  run_stampede collect_failed -c 2 -n 1 --stream -u "$url" --proto "$PROTO" \
    -data '{"name":"fail:NOT_FOUND"}' --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.failed") == 2 and g("grpc_status_codes") == {"NOT_FOUND": 2}'
  # No answer within -t: the last message's exchange, which waits for it, fails as a timeout,
  # within its second; the messages before it went.
  run_stampede collect_stalled -c 2 -n 3 -t 1 --stream -u "$url" --proto "$PROTO" \
    -data '{"name":"sleep:5000"}' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 4 and g("requests.failed") == 2 and g("errors.timeout") == 2
g("events.received") == 4 and g("events.unanswered") == 4 ## sent, but no call answered
PYEOF
  awk -v t="$ELAPSED" 'BEGIN { exit !(t < 4) }' || fail "collect_stalled: took ${ELAPSED}s (-t 1)"
  # A run stopped (Ctrl-C) amid its calls: the messages they sent count as sent, and as
  # unanswered, every one (the server read some of them, never more than were sent).
  interrupt_run collect_cut 1 -c 2 -n 100000000 -t 5 --stream -u "$url" --proto "$PROTO" \
    -data '{"name":"cut"}' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("stop_reason") == "interrupted" and g("requests.failed") == 0
g("events.received") > 0 and g("events.unanswered") == g("events.received")
PYEOF
  local received
  received=$(grep -c '"received": "cut",' "$SERVER_LOG" || true)
  json_assert "$OUT" "0 < $received <= g('events.received')" "collect_cut: the server read $received"
  # Its messages need --stream, and -n: its call ends with the -n-th.
  run_stampede collect_whole -c 1 -n 1 -u "$url" --proto "$PROTO" -data '{"name":"x"}'
  expect_rc 2
  grep -q "is client-streaming: give --stream" "$ERR" || fail "collect_whole: $(head -c 500 "$ERR")"
  run_stampede collect_duration -c 1 -z 1s --stream -u "$url" --proto "$PROTO" -data '{"name":"x"}'
  expect_rc 2
  grep -q "give -n, not -z" "$ERR" || fail "collect_duration: $(head -c 500 "$ERR")"
  run_stampede collect_rate -c 1 -n 5 --rate 10 --stream -u "$url" --proto "$PROTO" -data '{"name":"x"}'
  expect_rc 2
  grep -q "goes at its messages' pace" "$ERR" || fail "collect_rate: $(head -c 500 "$ERR")"
}

case_serve_echo() {  # stampede serve's echo, with --data-file's bytes and no .proto
  start_serve
  printf '\x0a\x04echo' >"$TEST_TMP/msg.bin"  # field 1, a 4-byte string
  run_stampede echo -c 4 -n 25 -m 1 -u "grpc://127.0.0.1:$SERVE_PORT/stampede.Echo/Echo" \
    --data-file "$TEST_TMP/msg.bin" --output json
  expect_rc 0
  json_assert "$OUT" 'g("requests.succeeded") == 100 and g("grpc_status_codes") == {"OK": 100}'
  run_stampede unimplemented -c 1 -n 2 -u "grpc://127.0.0.1:$SERVE_PORT/no.Such/Method" \
    --data-file "$TEST_TMP/msg.bin" --output json
  expect_rc 0
  json_assert "$OUT" 'g("grpc_status_codes") == {"UNIMPLEMENTED": 2}'
}

# stampede serve's streaming methods, through a .proto that declares them: Chat answers each
# message as it comes (a bidirectional exchange waits for it), Collect the last, Repeat paces its
# x-count answers x-interval-ms apart (never sooner).
case_serve_streams() {
  start_serve
  local echo_proto=$HERE/protos/echo.proto base="grpc://127.0.0.1:$SERVE_PORT/stampede.Echo"
  run_stampede serve_chat -c 3 -n 20 -t 5 --stream -u "$base/Chat" --proto "$echo_proto" \
    -data '{"code":200,"msg":"hi"}' -v json --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 60 and g("grpc_status_codes") == {"OK": 60}
g("events.unit") == "message" and g("events.received") == 60 and g("events.streams.opened") == 3
PYEOF
  run_stampede serve_collect -c 3 -n 20 -t 5 --stream -u "$base/Collect" --proto "$echo_proto" \
    -data '{"code":200,"msg":"hi"}' -v json --expect-json '/msg=hi' --output json \
    --html "$TEST_TMP/collect.html"
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 60 and g("grpc_status_codes") == {"OK": 3}
g("events.unit") == "sent message" and g("events.streams.ended_by_server") == 3
PYEOF
  # The page names the figures for what they are: messages sent (headless Chromium).
  "$PYTHON" "$HERE/html/check_page.py" "$TEST_TMP/collect.html" >&2 ||
    fail "serve_collect: the page does not show the run (see above)"
  run_stampede serve_repeat -c 2 -n 10 -t 5 --stream -u "$base/Repeat" --proto "$echo_proto" \
    -H 'x-count: 10' -H 'x-interval-ms: 10' -data '{"code":200,"msg":"hi"}' -v json --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 20 and g("events.received") == 20 and g("events.streams.opened") == 2
g("duration_s") >= 0.09 ## the server's pace: the tenth answer is due 90 ms after the first
PYEOF
  # Paced, not bunched nor stuck: the run lasts the 90 ms its tenth answer is due at (above, in both
  # passes), and its gaps average near 10 ms. Not their median: the server keeps an absolute
  # schedule, so on a loaded machine a late timer is followed by gaps of 0 that catch up (a CI run
  # saw the median of 18 gaps outside [9.5, 11] ms). How exactly serve keeps the pace is
  # TargetH2Server.GrpcRepeatPacesItsAnswers's to check.
  kept_schedule "$OUT" 'g("events.gap_ms.mean") <= 20.0' "serve_repeat: an answer every 10 ms"
}

case_big() {  # an answer over the client's own limit (4 MiB, or --max-message) is too_big, no status
  start_grpc big
  run_stampede big -c 2 -n 2 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"big:5000000"}' --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.failed") == 4 and g("errors.too_big") == 4 and g("errors.verify") == 0
"grpc_status_codes" not in d
PYEOF
  grep -qF "first too_big failure: a gRPC answer's message of 5000008 bytes, more than the limit of 4194304 (--max-message 4194304)" "$ERR" ||
    fail "big: no too_big warning: $(grep -v '│' "$ERR" | head -3)"
  run_stampede big_allowed -c 2 -n 2 -u "grpc://127.0.0.1:$SERVER_PORT/$SAY" --proto "$PROTO" \
    -data '{"name":"big:5000000"}' --max-message 6000000 -v json --output json
  expect_rc 0
  json_check "$OUT" <<'PYEOF'
g("requests.succeeded") == 4 and g("grpc_status_codes") == {"OK": 4}
PYEOF
  assert_eq 8 "$(calls_logged big:5000000 8)" "big: calls the server logged"
}

case_usage() {  # exit 2 and nothing sent
  local url="grpc://127.0.0.1:9/$SAY"
  run_stampede no-proto -c 1 -n 1 -u "$url" -data '{"name":"x"}'
  expect_rc 2
  grep -q "needs --proto FILE" "$ERR" || fail "no-proto: $(head -c 500 "$ERR")"
  run_stampede no-method -c 1 -n 1 -u "grpc://127.0.0.1:9/helloworld.Greeter/Nope" --proto "$PROTO" -data '{}'
  expect_rc 2
  grep -q "no method helloworld.Greeter/Nope in .*helloworld.proto (it has: helloworld.Greeter/SayHello" "$ERR" ||
    fail "no-method: $(head -c 500 "$ERR")"
  run_stampede bad-json -c 1 -n 1 -u "$url" --proto "$PROTO" -data '{"nam":"x"}'
  expect_rc 2
  grep -q "does not fit helloworld.HelloRequest" "$ERR" || fail "bad-json: $(head -c 500 "$ERR")"
  printf 'syntax = "proto3";\nmessage A { int32 x = 1 }\n' >"$TEST_TMP/bad.proto"
  run_stampede bad-proto -c 1 -n 1 -u "$url" --proto "$TEST_TMP/bad.proto" -data '{}'
  expect_rc 2
  grep -q "bad.proto:2:" "$ERR" || fail "bad-proto: no file:line: $(head -c 500 "$ERR")"
  run_stampede proto-on-http -c 1 -n 1 -u "http://127.0.0.1:9/" --proto "$PROTO"
  expect_rc 2
  grep -q -- "--proto and --data-file are for gRPC calls" "$ERR" || fail "proto-on-http: $(head -c 500 "$ERR")"
  run_stampede stream-unary -c 1 -n 1 --stream -u "$url" --proto "$PROTO" -data '{"name":"x"}'
  expect_rc 2
  grep -q "this method answers once" "$ERR" || fail "stream-unary: $(head -c 500 "$ERR")"
  # The message is encoded once: a ${...} in it would go as its letters.
  run_stampede data-template -c 1 -n 1 -u "$url" --proto "$PROTO" -data '{"name":"u${seq}"}'
  expect_rc 2
  grep -qF -- "-data's \${...} values are not filled in a gRPC message" "$ERR" ||
    fail "data-template: $(head -c 500 "$ERR")"
}

run_cases "${GRPC_CASES:-}" unary statuses metadata deadline json expect shared tls stream stream_messages bidi \
  collect serve_echo serve_streams big usage
pass
