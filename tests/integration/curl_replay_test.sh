#!/usr/bin/env bash
# Every sample in tests/curl/samples/ is sent by real curl and by `stampede -p`; a loopback capture server
# records both, and method, target, headers (names, case, order, values) and body must be the same
# (curl_replay.py compare, one process for every sample).
# Each URL in a sample is pointed at the capture server first (the same rewrite for both).
# cmd.exe samples (*.cmd.curl.txt) cannot run here: curl runs their bash twin (*.cmd.twin.sh).
source "$(dirname "$0")/lib.sh" "$@"
command -v curl >/dev/null || fail "'curl' is not installed (apt-get install curl)"

HERE=$(cd "$(dirname "$0")" && pwd)
SAMPLES=$HERE/../curl/samples
HELPER=$HERE/curl_replay.py

CAPTURED=$TEST_TMP/captured.jsonl
: >"$CAPTURED"
SOCKET=$TEST_TMP/capture.sock
ABSTRACT=stampede-capture-$$-$RANDOM
"$PYTHON" "$HELPER" serve "$CAPTURED" "$TEST_TMP/capture.port" "$SOCKET" "$ABSTRACT" &
_PIDS+=("$!")
_watch "$!"
for _ in $(seq 100); do
  [[ -s $TEST_TMP/capture.port ]] && break
  sleep 0.05
done
[[ -s $TEST_TMP/capture.port ]] || fail "the capture server did not start"
PORT=$(cat "$TEST_TMP/capture.port")
log "capture server on 127.0.0.1:$PORT"

WORK=$TEST_TMP/samples  # a copy, so that -o/-c in a sample write nowhere else
cp -r "$SAMPLES" "$WORK"

# rewrite FILE: every http(s)://host[:port] (keeping user:password@) and localhost:8080 now mean
# the capture server; @PORT@, @SOCKET@ and @ABSTRACT@ are its port and Unix sockets.
rewrite() {
  sed -E -e "s#https?://([^/@ '\"^]*@)?[A-Za-z0-9.-]+(:[0-9]+)?#http://\\1127.0.0.1:$PORT#g" \
    -e "s#localhost:8080#127.0.0.1:$PORT#g" -e "s#@PORT@#$PORT#g" -e "s#@SOCKET@#$SOCKET#g" \
    -e "s#@ABSTRACT@#$ABSTRACT#g" "$1"
}

# What hand-environment and hand-standard-input read: bash and stampede see the same values.
export STAMPEDE_SAMPLE_TOKEN='tok en/42' STAMPEDE_SAMPLE_PATH='items/42?view=full'
export STAMPEDE_SAMPLE_OPTS='-H X-Split:1 -G -d q=1'
unset STAMPEDE_SAMPLE_UNSET

# new_records SINCE OUT: the captured lines after line SINCE.
new_records() { tail -n +"$(($1 + 1))" "$CAPTURED" >"$2"; }
lines() { wc -l <"$CAPTURED"; }

names=()
different=0
count=0
for sample in "$SAMPLES"/*.curl.txt; do
  name=$(basename "$sample" .curl.txt)
  count=$((count + 1))
  curl_source=$sample
  [[ $name == *.cmd ]] && curl_source=$SAMPLES/$name.twin.sh
  [[ -f $curl_source ]] || fail "$name: no bash twin $curl_source for this cmd.exe sample"
  rewrite "$sample" >"$WORK/$name.rewritten.txt"
  rewrite "$curl_source" >"$WORK/$name.curl.sh"

  # Real curl: -q ignores ~/.curlrc; stdout is not ours to keep.
  before=$(lines)
  (cd "$WORK" && timeout -k 5 30 bash -c \
    'curl() { command curl -q -sS --max-time 10 "$@" >/dev/null; }; set -e; source "$1"' \
    _ "./$name.curl.sh") || fail "$name: real curl failed on this sample"
  new_records "$before" "$TEST_TMP/$name.curl.jsonl"

  before=$(lines)
  run_stampede "$name.live" -k -c 1 -n 1 -p "$WORK/$name.rewritten.txt" --output json
  expect_rc 0
  new_records "$before" "$TEST_TMP/$name.live.jsonl"

  run_stampede "$name.printed" -k -p "$WORK/$name.rewritten.txt" --print-request
  expect_rc 0
  names+=("$name")
done
"$PYTHON" "$HELPER" compare "$TEST_TMP" "${names[@]}" || different=1
# bad NAME TEXT EXPECTED: a broken curl file is one line on stderr (file:line:column: what),
# exit status 2, and nothing reaches the server.
bad() {
  local file=$WORK/$1.bad.txt before
  printf '%s\n' "$2" >"$file"
  before=$(lines)
  run_stampede "bad-$1" -c 1 -n 1 -p "$file"
  expect_rc 2
  assert_eq 1 "$(wc -l <"$ERR")" "$1: lines on stderr"
  grep -qF -- "$1.bad.txt:$3" "$ERR" || fail "$1: expected '$3' in: $(cat "$ERR")"
  assert_eq "$before" "$(lines)" "$1: requests captured"
}
bad unterminated $'curl http://127.0.0.1:'"$PORT"$'/ \\\n  -H \'X-A: 1' "2:6: unterminated single quote"
bad no-url "curl -H 'X-A: 1'" "1:1: no URL in this curl command"
bad missing-file "curl -d @files/missing.json http://127.0.0.1:$PORT/" "1:9: cannot read file 'files/missing.json'"
bad scheme "curl ftp://127.0.0.1:$PORT/x" "1:6: unsupported scheme 'ftp'"
bad unknown-option "curl --frobnicate http://127.0.0.1:$PORT/" "1:6: unknown curl option '--frobnicate'"
bad ambiguous "curl --hea http://127.0.0.1:$PORT/" "1:6: ambiguous curl option '--hea' (--head, --header)"
bad substitution "curl -H \"X-Id: \$(uuidgen)\" http://127.0.0.1:$PORT/" "1:16: command substitution \$(...) is not supported"
bad no-input "curl -d @- http://127.0.0.1:$PORT/" "1:9: this command reads standard input (-), which the file does not give it"

((count >= 30)) || fail "only $count samples in tests/curl/samples (want at least 30)"
((different == 0)) || fail "samples differ from curl (above)"
log "$count samples: stampede sends what curl sends"
pass
