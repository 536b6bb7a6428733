#!/usr/bin/env bash
# WebSocket (-u ws:// and wss://) against a real server (ws_server.py): exact counts in the report and
# in the server's log of every message it read.
# Every case runs (in a subshell) even when an earlier one failed; the script fails at the end
# listing the failed cases. WS_CASES='echo close' runs only the cases whose names start so;
# STAMPEDE_KEEP_TMP=1 keeps the server logs (ws.log, wss.log) and each run's output.
# shellcheck disable=SC2317  # the case_* functions are called indirectly, by name
source "$(dirname "$0")/lib.sh" "$@"

WS_SERVER=$(dirname "$(realpath "$0")")/ws_server.py
# Debian's python3-websockets is installed for the system interpreter only (not for a pyenv python3).
WS_PYTHON=/usr/bin/python3
"$WS_PYTHON" -c 'import websockets.legacy.server' 2>/dev/null ||
  fail "$WS_PYTHON cannot import websockets: apt-get install python3-websockets"
# Each run takes under 3 s; a hung one is killed after 20 s (run_stampede's bound), not 60.
STAMPEDE_LIMIT=${STAMPEDE_LIMIT:-20}

# ws_run NAME URL ARGS...: stampede ARGS -u URL --output json; URL gets ?run=NAME (or &run=NAME) so
# that the server's log tells the runs apart. Sets TARGET, the URL's path and query as logged.
ws_run() {
  local name=$1 url=$2 sep='?'
  shift 2
  [[ $url == *\?* ]] && sep='&'
  url=$url${sep}run=$name
  TARGET=/${url#*://*/}
  run_stampede "$name" "$@" -u "$url" --output json
  ((RC < 128)) || fail "$name: stampede crashed (exit $RC = signal $((RC - 128))); stderr: $(tail -c 2000 "$ERR")"
  expect_rc 0
}

# logged TARGET KIND [PAYLOAD]: how many lines of SERVER_LOG are TARGET's events of KIND (open, text,
# binary, close, refuse; see ws_server.py), with exactly PAYLOAD after KIND when given.
logged() {
  settle_log "$SERVER_LOG"
  T=$1 K=$2 P=${3-} HAS_P=${3+1} awk '
    $1 == ENVIRON["T"] && $2 == ENVIRON["K"] {
      if (!ENVIRON["HAS_P"] || substr($0, length($1) + length($2) + 3) == ENVIRON["P"]) n++
    }
    END { print n + 0 }' "$SERVER_LOG"
}

# expect_logged COUNT TARGET KIND [PAYLOAD]: the server logged COUNT such lines; on a mismatch,
# shows the first lines it logged for TARGET.
expect_logged() {
  local want=$1 got what
  shift
  got=$(logged "$@")
  [[ $got == "$want" ]] && return 0
  what="'$2' lines for $1"
  (($# < 3)) || what+=" with payload '$3'"
  fail "$_LAST_RUN: the server logged $got $what, expected $want; its lines for $1:
$(awk -v t="$1" '$1 == t' "$SERVER_LOG" | head -n 8 | cut -c 1-200)"
}

# expect_closed COUNT TARGET CODE: the server logged COUNT closes of TARGET's connections, each
# with close code CODE (its lines are "TARGET close CONNECTION CODE").
expect_closed() {
  expect_logged "$1" "$2" close
  local other
  other=$(T=$2 C=$3 awk '$1 == ENVIRON["T"] && $2 == "close" && $NF != ENVIRON["C"]' "$SERVER_LOG")
  [[ -z $other ]] || fail "$_LAST_RUN: closes with a code other than $3: $(head -n 3 <<<"$other")"
}

# expect_all NAME TOTAL KIND: the last run's report: TOTAL messages, all succeeded (KIND success)
# or all failed as KIND.
expect_all() {
  local name=$1 total=$2 kind=$3
  if [[ $kind == success ]]; then
    json_check "$OUT" <<EOF
g("requests.total") == $total and g("requests.abandoned") == 0
g("requests.succeeded") == $total and g("requests.failed") == 0
$(only_errors none 0)
EOF
  else
    json_check "$OUT" <<EOF
g("requests.total") == $total and g("requests.abandoned") == 0
g("requests.failed") == $total and g("requests.succeeded") == 0
$(only_errors "$kind" "$total") ## every message of $name fails as $kind
EOF
  fi
}

# ---- the cases; each runs in a subshell (see the end) ----

# Each of 10 users keeps one connection for its 20 round trips; the server read every message.
case_echo() {
  ws_run echo "$WS_URL/echo" -c 10 -n 20 -data '{"op":"ping"}'
  expect_all echo 200 success
  json_assert "$OUT" 'g("connections.opened") == 10' "echo: one connection per user"
  expect_logged 200 "$TARGET" text '{"op":"ping"}'
  expect_logged 0 "$TARGET" binary
  expect_logged 10 "$TARGET" open
}

# No -data: go-stress-testing's ping {"seq":"<user>_<i>","cmd":"ping","data":{}}; with -v json each
# reply must carry that seq and response.code 200. The server read each seq once.
case_acc() {
  ws_run acc "$WS_URL/acc" -c 5 -n 4 -v json
  expect_all acc 20 success
  expect_logged 20 "$TARGET" text
  settle_log "$SERVER_LOG"
  "$PYTHON" - "$SERVER_LOG" "$TARGET" 5 4 <<'EOF' || fail "acc: the messages the server read are not the 20 pings"
import collections, json, sys
log, target, c, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
seqs, bad = collections.Counter(), []
for line in open(log):
    t, kind, payload = (line.rstrip("\n").split(" ", 2) + ["", ""])[:3]
    if t != target or kind != "text":
        continue
    try:
        m = json.loads(payload)
        assert m["cmd"] == "ping" and m["data"] == {}
        seqs[m["seq"]] += 1
    except (ValueError, KeyError, AssertionError, TypeError):
        bad.append(payload)
want = collections.Counter("%d_%d" % (u, i) for u in range(c) for i in range(n))
if bad or seqs != want:
    print("  not go-stress-testing pings: %s" % bad[:3], file=sys.stderr)
    print("  seqs missing: %s; extra or repeated: %s" % (sorted(want - seqs), sorted(seqs - want)), file=sys.stderr)
    sys.exit(1)
EOF
}

# -v json checks the seq and the code (-code, 200 by default); without -v any reply succeeds.
case_verify() {
  ws_run verify_wrongseq "$WS_URL/wrongseq" -c 2 -n 5 -v json
  expect_all verify_wrongseq 10 verify
  expect_logged 10 "$TARGET" text
  ws_run verify_badcode "$WS_URL/badcode" -c 2 -n 5 -v json
  expect_all verify_badcode 10 verify
  expect_logged 10 "$TARGET" text
  ws_run verify_code500 "$WS_URL/badcode" -c 2 -n 5 -v json -code 500
  expect_all verify_code500 10 success
  ws_run verify_none "$WS_URL/badcode" -c 2 -n 5
  expect_all verify_none 10 success
}

# /close-after/3 echoes 3 messages, then sends a close frame (1000). Per user: messages 1-3 succeed;
# the 4th fails as `closed`; the 5th goes on a new connection and succeeds.
case_close() {
  ws_run close "$WS_URL/close-after/3" -c 2 -n 5
  json_check "$OUT" <<EOF
g("requests.total") == 10 and g("requests.abandoned") == 0
g("requests.succeeded") == 8 and g("requests.failed") == 2 ## per user 3 + 1 succeed, the 4th fails
$(only_errors closed 2) ## the 4th message of each user meets the server's close
g("connections.opened") == 4 ## per user: the first connection, then one for the 5th message
EOF
  ## The 4th message races the close frame: stampede may send it before it reads the close, and
  ## it may reach the server's socket, but the server reads exactly 3 messages on a connection and
  ## then only closes: it never reads (nor logs) the 4th. So the log holds exactly 3 + 1 messages
  ## per user, whichever way the race goes, and 2 connections per user.
  expect_logged 8 "$TARGET" text
  expect_logged 4 "$TARGET" open
}

# A server that reads and never answers: -t 1 makes each message a timeout after 1 s, and the
# next message goes on a new connection; 2 messages in a row per user take 2 s, not a hang (nor
# a goodbye's second more each). The sanitized build, beside other tests, took 2.65 s once.
case_silent() {
  ws_run silent "$WS_URL/silent" -t 1 -c 2 -n 2
  expect_all silent 4 timeout
  took 2.0 3.0 "two sequential 1 s timeouts per user"
  expect_logged 4 "$TARGET" text  # each message was sent (and read) before it timed out
  expect_logged 4 "$TARGET" open  # a timed-out connection is dropped, the next message reconnects
}

# The server refuses the upgrade: every message is a `handshake` failure, the HTTP status counted.
# Each message tries its own handshake (the server saw one per message).
handshake_refused() {
  local name=$1 path=$2 status=$3
  ws_run "$name" "$WS_URL$path" -c 2 -n 3
  expect_all "$name" 6 handshake
  json_assert "$OUT" "g('status_codes') == {'$status': 6}" "$name: the refusals' HTTP status"
  expect_logged 6 "$TARGET" refuse "$status"
  expect_logged 0 "$TARGET" open
}
case_reject() { handshake_refused reject /reject 403; }
case_notfound() { handshake_refused notfound /no/such/path 404; }

# -data @file reads the message from a file; --binary sends it as a binary frame, byte for byte
# (NUL, LF, CR and bytes that are not UTF-8: a text frame could not carry them).
case_file() {
  local text=$TEST_TMP/message.json bin=$TEST_TMP/message.bin hex
  printf '%s' '{"from":"file"}' >"$text"  # no trailing newline: what a file holds is sent as is
  ws_run file_text "$WS_URL/echo" -c 2 -n 3 -data "@$text"
  expect_all file_text 6 success
  expect_logged 6 "$TARGET" text '{"from":"file"}'

  "$PYTHON" -c 'import sys; open(sys.argv[1], "wb").write(bytes(range(256)) + b"\r\nend")' "$bin"
  hex=$("$PYTHON" -c 'import sys; print(open(sys.argv[1], "rb").read().hex())' "$bin")
  ws_run file_binary "$WS_URL/echo" -c 2 -n 3 --binary -data "@$bin"
  expect_all file_binary 6 success
  expect_logged 6 "$TARGET" binary "$hex"
  expect_logged 0 "$TARGET" text
}

# wss:// verifies the certificate: a self-signed one fails every message as `tls` (before any
# WebSocket handshake); --insecure skips the check and all succeed.
case_wss() {
  ws_run wss_strict "$WSS_URL/echo" -c 2 -n 3 -data tls
  expect_all wss_strict 6 tls
  SERVER_LOG=$WSS_LOG expect_logged 0 "$TARGET" open
  ws_run wss_insecure "$WSS_URL/echo" -c 2 -n 3 -data tls --insecure
  expect_all wss_insecure 6 success
  SERVER_LOG=$WSS_LOG expect_logged 6 "$TARGET" text tls
}

# --hold 1.5: each user's connection stays open 1.5 s after its message (pinged every 0.3 s),
# then closes with a close frame (1000) that the server logged; the run lasts the hold. The
# once-a-second row falls mid-hold, half a second from either edge: a 1 s hold raced it.
case_hold() {
  ws_run hold "$WS_URL/echo" -c 20 -n 1 --hold 1.5 --ping 0.3 -data held
  expect_all hold 20 success
  took 1.5 4.5 "a 1.5 s hold"
  json_check "$OUT" <<'EOF'
g("connections.opened") == 20 and g("connections.open_at_end") == 0
g("connections.failed") == 0 and g("connections.closed_by_server") == 0 ## the server answers pings
max(s["open"] for s in g("connections.per_second")) == 20 ## a row saw all 20 open
EOF
  expect_logged 20 "$TARGET" text held
  expect_closed 20 "$TARGET" 1000
}

# The same over TLS (--insecure: the server's certificate is self-signed): pings and the close
# go through the TLS socket, whose teardown (close_notify, then the server's close) ends the hold
# cleanly. (~1.5 s)
case_hold_wss() {
  ws_run hold_wss "$WSS_URL/echo" -c 20 -n 1 --hold 1.5 --ping 0.3 -data held --insecure
  expect_all hold_wss 20 success
  took 1.5 4.5 "a 1.5 s hold over TLS"
  json_check "$OUT" <<'EOF'
g("connections.opened") == 20 and g("connections.open_at_end") == 0
g("connections.failed") == 0 and g("connections.closed_by_server") == 0 ## the server answers pings
EOF
  SERVER_LOG=$WSS_LOG expect_logged 20 "$TARGET" text held
  SERVER_LOG=$WSS_LOG expect_closed 20 "$TARGET" 1000
}

# --hold without a time holds until Ctrl-C, which closes every connection with a close frame
# within a second and still prints the report.
case_hold_sigint() {
  interrupt_run hold_sigint 1.5 -c 20 -n 1 --hold -data held -u "$WS_URL/echo?run=hold_sigint" \
    --output json
  expect_rc 0
  took 0 3.5 "a SIGINT at 1.5 s"
  json_check "$OUT" <<'EOF'
g("stop_reason") == "interrupted"
g("requests.succeeded") == 20 and g("connections.opened") == 20
g("connections.open_at_end") == 0 and g("connections.failed") == 0
EOF
  expect_closed 20 /echo?run=hold_sigint 1000
}

# Ctrl-C while every user waits for a reply that never comes (-t 30): each connection still
# closes with a close frame within a second, and the messages are abandoned, not failures.
case_sigint_waiting() {
  interrupt_run sigint_waiting 1 -c 5 -n 1 -t 30 -data x -u "$WS_URL/silent?run=sigint_waiting" \
    --output json
  expect_rc 0
  took 0 2.5 "a SIGINT at 1 s"
  json_check "$OUT" <<'EOF'
g("stop_reason") == "interrupted"
g("requests.abandoned") == 5 and g("requests.succeeded") == 0 and g("requests.failed") == 0
g("connections.opened") == 5 and g("connections.open_at_end") == 0 and g("connections.failed") == 0
EOF
  expect_logged 5 /silent?run=sigint_waiting text x
  expect_closed 5 /silent?run=sigint_waiting 1000
}

# --ping 0.3 to a server that stops reading after the first message: the pings go unanswered,
# so each held connection is lost as a timeout about 0.6 s into its hold, long before --hold 10
# ends, and counted as failed by that kind, not as closed by the server.
case_ping_unanswered() {
  ws_run ping_unanswered "$WS_URL/deaf" -c 5 -n 1 --hold 10 --ping 0.3 -data x
  expect_all ping_unanswered 5 success
  took 0.5 3 "unanswered pings end the holds in about 0.6 s"
  json_check "$OUT" <<'EOF'
g("connections.opened") == 5 and g("connections.open_at_end") == 0
g("connections.failed") == 5 and g("connections.failed_by_kind") == {"timeout": 5}
g("connections.closed_by_server") == 0
EOF
}

# A server that closes a held connection: counted as closed by the server; the message before
# it succeeded.
case_hold_closed() {
  ws_run hold_closed "$WS_URL/close-after/1?code=4001" -c 5 -n 1 --hold 2 -data x
  expect_all hold_closed 5 success
  json_check "$OUT" <<'EOF'
g("connections.opened") == 5 and g("connections.closed_by_server") == 5
g("connections.open_at_end") == 0
g("connections.close_codes") == {"4001": 5} ## the server's code, each connection once
EOF
}

# --interval 0.5: a user's three messages go 0.5 s apart (send to send), so the run takes 1 s and
# a bit, not the few milliseconds of back to back.
case_interval() {
  ws_run interval "$WS_URL/echo" -c 6 -n 3 --interval 0.5 -data x
  expect_all interval 18 success
  json_assert "$OUT" '1.0 <= g("duration_s") < 1.6' "interval: 3 sends 0.5 s apart take 1 s"
  expect_logged 18 "$TARGET" text x
}

# --connect-rate 20: 40 users open their connections 20 a second, over two seconds (each of the
# two threads starts one every 0.1 s, the last 1.9 s in).
case_connect_rate() {
  ws_run connect_rate "$WS_URL/echo" -c 40 -n 1 --connect-rate 20 -cpuNumber 2 -data x
  expect_all connect_rate 40 success
  json_check "$OUT" <<'EOF'
1.9 <= g("duration_s") < 2.5 ## the 40th user starts 1.95 s in
15 <= g("connections.per_second")[0]["opened"] <= 21 ## 20 in the first second, the rate's most (the 21st starts at 1.0 s, on the row's edge); a CI stall pushed 2 into the next row once
1.85 <= g("connections.last_opened_s") <= g("duration_s") ## the last opened 1.9 s in, not at once
EOF
}

# --listen: no -data, so nothing is sent; each of the 10 messages the server pushes 100 ms apart
# is a success whose latency is the gap since the one before; --hold 1.5 ends the listening.
case_listen() {
  ws_run listen "$WS_URL/push?n=10&every=100" -c 3 --listen --hold 1.5
  expect_all listen 30 success
  json_check "$OUT" <<'EOF'
g("connections.opened") == 3 and g("connections.open_at_end") == 0
80 <= g("latency_ms.p50") <= 150 ## the gaps are the server's 100 ms
g("bytes.body_received") == 3 * sum(len('{"i":%d}' % k) for k in range(10)) ## what was pushed, no more
g("bytes.received") >= g("bytes.body_received") + 3 * (129 + 10 * 2) ## with each upgrade's answer and frame header
EOF
  expect_logged 0 "$TARGET" text
  expect_closed 3 "$TARGET" 1000
}

# --max-message 10: a 32-byte echo is too big for the user, which fails it as too_big and closes
# the connection with 1009 (Beast's "message too big"); the next message opens a new one.
case_too_big() {
  ws_run too_big "$WS_URL/echo" -c 2 -n 3 --max-message 10 -data 0123456789abcdef0123456789abcdef
  expect_all too_big 6 too_big
  json_assert "$OUT" 'g("connections.opened") == 6' "too_big: each message on a new connection"
  expect_closed 6 "$TARGET" 1009
}

# ---- run ----

mkdir "$TEST_TMP/tls"
make_cert "$TEST_TMP/tls"
start_py_server wss "$WS_PYTHON" "$WS_SERVER" --tls "$TEST_TMP/tls/cert.pem" "$TEST_TMP/tls/key.pem" 90
WSS_URL=wss://127.0.0.1:$SERVER_PORT WSS_LOG=$SERVER_LOG
start_py_server ws "$WS_PYTHON" "$WS_SERVER" 90  # last: SERVER_LOG stays ws.log, the cases' default
WS_URL=ws://127.0.0.1:$SERVER_PORT

run_cases "${WS_CASES:-}" echo acc verify close silent reject notfound file wss hold hold_wss hold_sigint \
  sigint_waiting ping_unanswered hold_closed interval connect_rate listen too_big
pass
