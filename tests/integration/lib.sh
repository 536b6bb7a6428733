# Shared helpers for the integration scripts: temp dir, free ports, a standalone nginx, log counts, asserts.
# shellcheck shell=bash
#
# Use from a script:   source "$(dirname "$0")/lib.sh" "$@"     ($1 is the stampede binary)
# Then:                start_nginx [--tls] [--stall] "$TEST_TMP/nginx" ['extra server config']
#                      run_stampede NAME -c 10 -n 100 -u "$HTTP_URL/?run=x" --output json
#                      expect_rc 0; json_assert "$OUT" 'g("requests.total") == 1000'
#                      json_check "$OUT" <<'EOF'   (one Python expression per line, `## why` optional)
#                      g("requests.failed") == 0 ## nginx only answers 200
#                      EOF
#                      assert_eq 1000 "$(count_requests "$ACCESS_LOG" 'GET /?run=x ')" "nginx requests"
# Everything started here (nginx, the stalling upstream) is stopped on exit, even on failure; set
# STAMPEDE_KEEP_TMP=1 to keep the temp dir (configs, logs, stampede output) for a post-mortem.
set -euo pipefail

TEST_NAME=$(basename "$0" .sh)
STAMPEDE=${1:-}
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/stampede-${TEST_NAME}.XXXXXX")
chmod 755 "$TEST_TMP"  # nginx workers run as `nobody` when the master is root: they must read html/

_PIDS=()       # processes we started and must stop: nginx master, stall server, watchdog
_NETNS=()      # network namespaces we made (netns.sh), deleted once the processes are stopped
_AT_EXIT=()    # commands a script adds, run first on exit (podman pods, an image)
_LAST_RUN=""   # name of the last run_stampede, for the failure post-mortem
NGINX_DIR=""

# log MESSAGE: progress line on stderr, prefixed with the test name.
log() { echo "[$TEST_NAME] $*" >&2; }

# fail MESSAGE: prints a clear failure line and exits 1 (the EXIT trap cleans up).
fail() {
  echo "FAIL [$TEST_NAME]: $*" >&2
  exit 1
}

# pass: prints the success line and exits 0.
pass() {
  echo "PASS [$TEST_NAME]" >&2
  exit 0
}

# assert_eq EXPECTED ACTUAL WHAT: fails unless the two strings are equal.
assert_eq() {
  [[ "$1" == "$2" ]] || fail "$3: expected '$1', got '$2'"
}

# assert_le A B WHAT: fails unless integer A <= integer B.
assert_le() {
  (( $1 <= $2 )) || fail "$3: expected $1 <= $2"
}

# _stop_pid PID: TERM, then KILL after 5 s, then reap; safe under `set -e` and for dead processes.
_stop_pid() {
  local pid=$1 i children
  if kill -0 "$pid" 2>/dev/null; then
    children=$(pgrep -P "$pid" 2>/dev/null || true)
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    # nginx workers whose master had to be killed would be orphaned: stop them too.
    for i in $children; do kill -KILL "$i" 2>/dev/null || true; done
  fi
  wait "$pid" 2>/dev/null || true
}

_cleanup() {
  local rc=$? i
  set +e
  trap - EXIT INT TERM HUP
  for i in "${_AT_EXIT[@]}"; do eval "$i"; done
  for ((i = ${#_PIDS[@]} - 1; i >= 0; i--)); do _stop_pid "${_PIDS[i]}"; done
  for i in "${_NETNS[@]}"; do ip netns del "$i" 2>/dev/null; done
  if ((rc != 0)); then
    if [[ -n $_LAST_RUN && -f $TEST_TMP/$_LAST_RUN.err ]]; then
      echo "--- stderr of the last stampede run ($_LAST_RUN), first 20 lines:" >&2
      head -n 20 "$TEST_TMP/$_LAST_RUN.err" >&2
    fi
    if [[ -n $NGINX_DIR && -s $NGINX_DIR/error.log ]]; then
      echo "--- nginx error.log, last 10 lines:" >&2
      tail -n 10 "$NGINX_DIR/error.log" >&2
    fi
  fi
  if [[ ${STAMPEDE_KEEP_TMP:-0} == 1 ]]; then
    echo "[$TEST_NAME] kept $TEST_TMP" >&2
  else
    rm -rf "$TEST_TMP"
  fi
  exit "$rc"
}
trap _cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

[[ -n $STAMPEDE ]] || fail "usage: $0 /path/to/stampede"
[[ -x $STAMPEDE ]] || fail "stampede binary '$STAMPEDE' does not exist or is not executable"
STAMPEDE=$(realpath "$STAMPEDE")
# SANITIZED=1 for a binary built with AddressSanitizer (scripts/test.sh's second pass): it, and
# `stampede serve` from the same build, do not keep time as a release build does, so the checks
# of how closely a run kept a schedule (kept_schedule) are the release pass's.
SANITIZED=0
if grep -qa __asan_init "$STAMPEDE"; then SANITIZED=1; fi
PATH=$PATH:/usr/sbin:/sbin  # Debian puts nginx in /usr/sbin
for _tool in nginx python3 timeout; do
  command -v "$_tool" >/dev/null || fail "'$_tool' is not installed (apt-get install nginx python3 coreutils)"
done
# Resolve python3 once: version-manager shims (pyenv) cost half a second per start.
PYTHON=$(python3 -c 'import sys; print(sys.executable)')

# free_port: prints a TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
  "$PYTHON" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# wait_for_port PORT [SECONDS=10] [PID]: waits until 127.0.0.1:PORT accepts connections; status 1
# on timeout or as soon as PID (the server that should listen there) has died.
wait_for_port() {
  local port=$1 deadline=$((SECONDS + ${2:-10})) pid=${3:-}
  while ((SECONDS <= deadline)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    sleep 0.05
  done
  return 1
}

# _watch PID: a watchdog that stops PID (and removes TEST_TMP) if this script dies without running its
# EXIT trap (SIGKILL).
_watch() {
  local keep=$TEST_TMP
  [[ ${STAMPEDE_KEEP_TMP:-0} == 1 ]] && keep=""
  "$PYTHON" - "$$" "$1" "$keep" >/dev/null 2>&1 <<'EOF' &
import os, shutil, signal, sys, time
script, target, tmp = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
while alive(script) and alive(target):
    time.sleep(0.5)
if alive(target):
    os.kill(target, signal.SIGTERM)
    time.sleep(3)
    if alive(target):
        os.kill(target, signal.SIGKILL)
if tmp and not alive(script):
    shutil.rmtree(tmp, ignore_errors=True)
EOF
  _PIDS+=("$!")
}

# wait_for_file FILE PID: waits (at most 10 s) until a server's FILE (its port, written once it
# listens) is not empty; status 1 if PID dies first or the time runs out.
wait_for_file() {
  local i
  for i in $(seq 200); do
    [[ -s $1 ]] && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.05
  done
  [[ -s $1 ]]
}

# start_py_server [--disown] NAME INTERPRETER SCRIPT [ARGS...]: starts a test server written to the
# convention of fault_server.py and ws_server.py, `INTERPRETER SCRIPT PORT_FILE LOG_FILE ARGS...`:
# it writes its port to PORT_FILE once it listens and logs what it reads to LOG_FILE. Waits until it
# accepts; it is stopped on exit. Sets SERVER_PID, SERVER_PORT, SERVER_LOG ($TEST_TMP/NAME.log; its
# stderr goes to NAME.stderr). --disown: out of bash's job table, so a SIGKILL the test sends it is
# not announced.
start_py_server() {
  local disown=0
  [[ $1 == --disown ]] && { disown=1; shift; }
  local name=$1 interpreter=$2 script=$3 portfile=$TEST_TMP/$1.port
  shift 3
  SERVER_LOG=$TEST_TMP/$name.log
  : >"$SERVER_LOG"
  "$interpreter" "$script" "$portfile" "$SERVER_LOG" "$@" 2>"$TEST_TMP/$name.stderr" &
  SERVER_PID=$!
  ((disown)) && disown "$SERVER_PID"
  _PIDS+=("$SERVER_PID")
  _watch "$SERVER_PID"
  wait_for_file "$portfile" "$SERVER_PID" ||
    fail "server '$name' ($(basename "$script")) did not start: $(head -c 1000 "$TEST_TMP/$name.stderr")"
  SERVER_PORT=$(cat "$portfile")
  wait_for_port "$SERVER_PORT" 10 "$SERVER_PID" || fail "server '$name' does not accept on :$SERVER_PORT"
  log "server '$name' ($(basename "$script"), pid $SERVER_PID) on 127.0.0.1:$SERVER_PORT"
}

# run_cases FILTER CASE...: runs the functions case_CASE, each in a subshell so that a failing case
# ends only itself (fail) and the others still run; then fails listing the failed ones. FILTER (a
# script's FAULT_CASES, WS_CASES...), when not empty, keeps only the cases whose names start with
# one of its words. A failed case shows the stderr of its runs (those named CASE or CASE_*).
run_cases() {
  local filter=$1 c want f lines failed=()
  shift
  for c in "$@"; do
    if [[ -n $filter ]]; then
      for want in $filter; do [[ $c == "$want"* ]] && break; want=""; done
      [[ -n $want ]] || continue
    fi
    (case_"$c") && continue
    failed+=("$c")
    for f in "$TEST_TMP/$c.err" "$TEST_TMP/$c"_*.err; do
      [[ -f $f ]] || continue
      lines=$(grep -v -e '│' -e '─' "$f" | head -n 5) || true
      [[ -z $lines ]] || printf -- '--- %s (stderr without live rows):\n%s\n' "$(basename "$f")" "$lines" >&2
    done
  done
  ((${#failed[@]} == 0)) || fail "failed cases: ${failed[*]}"
}

# start_serve [ARGS...]: starts `stampede serve --port 0 ARGS...` (bounded to 2 minutes), waits until
# it accepts, and sets SERVE_PID and SERVE_PORT; it is stopped on exit. Its output goes to
# $TEST_TMP/NAME.out and .err, NAME being $SERVE_NAME (default serve): one name a server running.
start_serve() {
  local out=$TEST_TMP/${SERVE_NAME:-serve}
  # A script's second serve would otherwise find the first one's line still there, before its
  # own start truncates the file (a CI run read the port of an empty file so).
  rm -f "$out.out" "$out.err"
  timeout -k 5 120 "$STAMPEDE" serve --port 0 "$@" >"$out.out" 2>"$out.err" &
  SERVE_PID=$!
  _PIDS+=("$SERVE_PID")
  _watch "$SERVE_PID"
  wait_for_file "$out.out" "$SERVE_PID" || fail "serve did not start: $(head -c 1000 "$out.err")"
  SERVE_PORT=$(sed -nE 's|.*listening on http://127\.0\.0\.1:([0-9]+)/.*|\1|p' "$out.out")
  [[ -n $SERVE_PORT ]] || fail "no port in serve's first line: $(head -n 1 "$out.out")"
  wait_for_port "$SERVE_PORT" 10 "$SERVE_PID" || fail "serve does not accept on :$SERVE_PORT"
  log "stampede serve (pid $SERVE_PID) on 127.0.0.1:$SERVE_PORT"
}

# start_stall_server: starts a TCP server that accepts connections and never answers (bounded to
# 10 minutes); sets STALL_PORT.
start_stall_server() {
  local portfile=$TEST_TMP/stall.port pid
  "$PYTHON" - "$portfile" <<'EOF' &
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(512)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(s.getsockname()[1]))
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
s.settimeout(0.5)
held, end = [], time.time() + 600
while time.time() < end:
    try:
        held.append(s.accept()[0])
    except socket.timeout:
        pass
EOF
  pid=$!
  _PIDS+=("$pid")
  _watch "$pid"
  wait_for_file "$portfile" "$pid" || fail "the stall server did not start"
  STALL_PORT=$(cat "$portfile")
}

# The scripts' shared cache, kept across scripts, passes and runs: the test certificate and npm's
# packages, each made once under a lock (flock), whichever script asks first.
TEST_CACHE=${STAMPEDE_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stampede-tests}
mkdir -p "$TEST_CACHE"

# make_cert DIR: a self-signed certificate for localhost / 127.0.0.1 in DIR/cert.pem, DIR/key.pem:
# a copy of the cache's EC P-256 one, made anew when it has less than a day left.
make_cert() {
  local shared=$TEST_CACHE/cert
  command -v openssl >/dev/null || fail "'openssl' is not installed"
  (
    flock 9
    openssl x509 -checkend 86400 -noout -in "$shared/cert.pem" >/dev/null 2>&1 && exit 0
    rm -rf "$shared" "$shared.new" && mkdir -p "$shared.new"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj /CN=localhost \
      -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
      -keyout "$shared.new/key.pem" -out "$shared.new/cert.pem" >/dev/null 2>&1 && mv "$shared.new" "$shared"
  ) 9>"$TEST_CACHE/cert.lock" || fail "openssl could not make a certificate"
  cp "$shared/key.pem" "$shared/cert.pem" "$1/"
}

# npm_modules DIR: prints the node_modules folder of DIR's package.json and package-lock.json,
# installed by `npm ci` once into the cache (named by the two files' hash) and shared after that.
npm_modules() {
  local dir
  dir=$TEST_CACHE/npm-$(cat "$1/package.json" "$1/package-lock.json" | sha256sum | cut -c1-16)
  (
    flock 9
    [[ -f $dir/done ]] && exit 0
    rm -rf "$dir" && mkdir -p "$dir"
    cp "$1/package.json" "$1/package-lock.json" "$dir/"
    cd "$dir" && timeout 300 npm ci --no-audit --no-fund --silent >&2 && touch "$dir/done"
  ) 9>"$dir.lock" || fail "npm ci of $1 failed"
  echo "$dir/node_modules"
}

# start_nginx [--tls] [--stall] [--h2] DIR [EXTRA]: starts a standalone nginx (prefix DIR) in the
# foreground of a background job (--h2: speaking HTTP/2 only, h2c on HTTP_PORT), with
#   /            a static index.html of exactly INDEX_BYTES bytes
#   /status500   `return 500;`
#   /slow        (--stall) proxied to a server that accepts and never answers
#   EXTRA        appended inside the server block
# Sets HTTP_PORT, HTTP_URL, ACCESS_LOG, NGINX_PID and, with --tls, HTTPS_PORT, HTTPS_URL, CERT.
# The access log line is: $connection $connection_requests $status "$request" $body_bytes_sent $server_port
INDEX_BYTES=612
start_nginx() {
  local tls=0 stall=0 h2=0
  while [[ ${1:-} == --* ]]; do
    case $1 in
      --tls) tls=1 ;;
      --h2) h2=1 ;;
      --stall) stall=1 ;;
      *) fail "start_nginx: unknown option $1" ;;
    esac
    shift
  done
  local dir=$1 extra=${2:-}
  NGINX_DIR=$dir
  mkdir -p "$dir/html" "$dir/tmp"
  "$PYTHON" - "$dir/html/index.html" "$INDEX_BYTES" <<'EOF'
import sys
head = "<!DOCTYPE html>\n<html>\n<head>\n<title>stampede test page</title>\n</head>\n<body>\n<h1>stampede</h1>\n<p>"
tail = "</p>\n</body>\n</html>\n"
filler = "The quick brown fox jumps over the lazy dog. " * 20
size = int(sys.argv[2])
body = head + filler[: size - len(head) - len(tail)] + tail
assert len(body.encode()) == size
open(sys.argv[1], "w").write(body)
EOF
  # shellcheck disable=SC2034  # CERT is for the scripts
  ((tls)) && { make_cert "$dir"; CERT=$dir/cert.pem; }
  ((stall)) && start_stall_server
  for _ in 1 2 3; do  # a free port may be taken before nginx binds it: retry with new ones
    HTTP_PORT=$(free_port)
    HTTPS_PORT=$(free_port)
    _write_nginx_conf "$dir" "$tls" "$stall" "$extra" "$h2"
    : >"$dir/error.log"
    nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" &
    NGINX_PID=$!
    _PIDS+=("$NGINX_PID")
    _watch "$NGINX_PID"
    # nginx writes its pid file only once it has bound every port: until then a connection could
    # reach whoever else holds the port.
    if _wait_for_pidfile "$dir/nginx.pid" "$NGINX_PID" && wait_for_port "$HTTP_PORT" 10 "$NGINX_PID" &&
      { ((!tls)) || wait_for_port "$HTTPS_PORT" 10 "$NGINX_PID"; }; then
      ACCESS_LOG=$dir/access.log
      HTTP_URL=http://127.0.0.1:$HTTP_PORT
      HTTPS_URL=https://127.0.0.1:$HTTPS_PORT
      log "nginx $NGINX_PID on $HTTP_URL$( ((tls)) && echo " and $HTTPS_URL")$( ((stall)) && echo ", stall upstream :$STALL_PORT")"
      return 0
    fi
    _stop_pid "$NGINX_PID"
    grep -q "Address already in use" "$dir/error.log" || break
  done
  fail "nginx did not start (config: $dir/nginx.conf; its error.log follows)"
}

# _wait_for_pidfile FILE PID: waits (at most 10 s) until FILE holds PID; status 1 if PID dies first.
_wait_for_pidfile() {
  local i
  for i in $(seq 200); do
    [[ $(cat "$1" 2>/dev/null) == "$2" ]] && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}

_write_nginx_conf() {
  local dir=$1 tls=$2 stall=$3 extra=$4 h2=${5:-0} t http2=""
  ((h2)) && http2=" http2"  # HTTP/2 only: h2c with prior knowledge on HTTP_PORT, ALPN h2 on TLS
  {
    cat <<EOF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
# Room for a --rate run's default cap on a slow (ASan) build: past 1024 connections nginx closed
# idle keep-alive ones under the users ("reusing connections"), failing their next request.
worker_rlimit_nofile 10000;
events { worker_connections 8192; }
http {
    types { text/html html; }
    default_type text/plain;
    log_format stampede '\$connection \$connection_requests \$status "\$request" \$body_bytes_sent \$server_port';
    # For a location's own access_log: the cookies a request carried and those its response set.
    log_format cookies '\$connection \$status "\$request" "\$http_cookie" "\$sent_http_set_cookie"';
    # For a location's own access_log: its X-Id header and the length of its body.
    log_format fields '\$connection \$status "\$request" "\$http_x_id" "\$content_length"';
    # For a location's own access_log: the values a flow captured and sent back, and the id
    # nginx gave the request (what a capturing step's response carried).
    log_format captures '\$status "\$request" "\$http_authorization" "\$http_x_session" \$request_id';
    # For a location's own access_log: what a request asked to upgrade to (h2c_upgrade_test.sh).
    log_format upgrade '\$connection \$status "\$request" "\$http_connection" "\$http_upgrade" "\$http_http2_settings"';
    # For a location's own access_log (tests/integration/har/site.sh): one JSON object per request.
    log_format har escape=json '{"status":\$status,"method":"\$request_method","uri":"\$request_uri","body":"\$request_body","cookie":"\$http_cookie","x_trace":"\$http_x_trace","content_type":"\$content_type","set_cookie":"\$sent_http_set_cookie","request_id":"\$request_id","connection":\$connection}';
    # For a location's own access_log: whether a TLS handshake resumed a session (r) or not (.).
    log_format tls '\$connection \$status "\$request" \$ssl_session_reused \$ssl_protocol';
    access_log $dir/access.log stampede;
    keepalive_requests 100000;
    keepalive_timeout 75s;
EOF
    for t in client_body proxy fastcgi uwsgi scgi; do echo "    ${t}_temp_path $dir/tmp/$t;"; done
    cat <<EOF
    server {
        listen 127.0.0.1:$HTTP_PORT$http2;
        server_name localhost;
        root $dir/html;
        index index.html;
        location = /status500 { return 500; }
EOF
    if ((tls)); then
      cat <<EOF
        listen 127.0.0.1:$HTTPS_PORT ssl$http2;
        ssl_certificate $dir/cert.pem;
        ssl_certificate_key $dir/key.pem;
EOF
    fi
    if ((stall)); then
      echo "        location /slow { proxy_pass http://127.0.0.1:$STALL_PORT; proxy_read_timeout 60s; }"
    fi
    printf '        %s\n    }\n}\n' "$extra"
  } >"$dir/nginx.conf"
}

# settle_log [LOG]: waits (at most 5 s) until the access log stops growing, since nginx writes the
# line just after the response went out and the client may have exited before that.
settle_log() {
  local f=${1:-$ACCESS_LOG} last now i
  last=$(stat -c %s "$f" 2>/dev/null || echo 0)
  for i in $(seq 100); do
    sleep 0.05
    now=$(stat -c %s "$f" 2>/dev/null || echo 0)
    [[ $now == "$last" ]] && return 0
    last=$now
  done
}

# until_lines FILE REGEX N [SECONDS=5]: waits until N lines of FILE match the extended REGEX;
# status 1 if SECONDS pass first.
until_lines() {
  local deadline=$((SECONDS + ${4:-5})) n
  while :; do
    n=$(grep -cE -- "$2" "$1" 2>/dev/null || true)
    ((${n:-0} >= $3)) && return 0
    ((SECONDS < deadline)) || return 1
    sleep 0.05
  done
}

# await_lines FILE REGEX N [SECONDS=5]: prints how many lines of FILE match the extended REGEX,
# once N do (a server logs what it did just after its client saw it done) and the file has
# settled, so that more than N show too; or once SECONDS have passed.
await_lines() {
  local n
  until_lines "$@" || true
  settle_log "$1"
  n=$(grep -cE -- "$2" "$1" 2>/dev/null || true)
  echo "${n:-0}"
}

# count_requests [LOG] [FIXED_STRING]: number of access-log lines containing FIXED_STRING (all lines
# without it). Settles the log first.
count_requests() {
  local f=${1:-$ACCESS_LOG}
  settle_log "$f"
  [[ -f $f ]] || { echo 0; return 0; }
  grep -cF -- "${2:-}" "$f" || true
}

# count_distinct_connections [LOG] [FIXED_STRING]: distinct $connection values among those lines.
count_distinct_connections() {
  local f=${1:-$ACCESS_LOG}
  settle_log "$f"
  [[ -f $f ]] || { echo 0; return 0; }
  { grep -F -- "${2:-}" "$f" || true; } | awk '{print $1}' | sort -u | wc -l
}

# run_stampede NAME ARGS...: runs the binary bounded by STAMPEDE_LIMIT seconds (default 60);
# stdout goes to $OUT, stderr to $ERR (both files named after NAME); sets RC and ELAPSED (seconds).
run_stampede() {
  local name=$1 t0 t1
  shift
  _LAST_RUN=$name
  OUT=$TEST_TMP/$name.out
  ERR=$TEST_TMP/$name.err
  t0=$(date +%s%N)
  set +e
  timeout -k 5 "${STAMPEDE_LIMIT:-60}" "$STAMPEDE" "$@" >"$OUT" 2>"$ERR"
  RC=$?
  set -e
  t1=$(date +%s%N)
  ELAPSED=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  log "$name: stampede $* -> exit $RC in ${ELAPSED}s"
  if ((RC == 124 || RC == 137)); then
    fail "$name: stampede did not finish within ${STAMPEDE_LIMIT:-60}s (killed by timeout)"
  fi
}

# took MIN MAX WHAT: fails unless the last run lasted at least MIN and less than MAX seconds by its
# own clock (its report's duration_s, or "Time taken for tests"), and its process ended within 5 s
# of that. Tight bounds belong to the run's own time: the wall clock around it (ELAPSED) adds the
# process's start and exit, 1.5 s more on a busy machine under the sanitizers.
took() {
  local seconds
  seconds=$(sed -nE 's/^ *"duration_s": ([0-9.]+),?$/\1/p; s/^Time taken for tests: +([0-9.]+) seconds$/\1/p' "$OUT" | head -n 1)
  [[ -n $seconds ]] || fail "$_LAST_RUN: its report says no duration: $(head -c 300 "$OUT")"
  awk -v t="$seconds" -v a="$1" -v b="$2" 'BEGIN { exit !(t >= a && t < b) }' ||
    fail "$_LAST_RUN: $3: took ${seconds}s by its own clock, not in [$1, $2)"
  awk -v t="$seconds" -v e="$ELAPSED" 'BEGIN { exit !(e < t + 5) }' ||
    fail "$_LAST_RUN: its process took ${ELAPSED}s for a run of ${seconds}s"
}

# expect_rc EXPECTED: fails unless the last run exited with EXPECTED, showing its stderr.
expect_rc() {
  ((RC == $1)) && return 0
  fail "$_LAST_RUN: expected exit status $1, got $RC; stderr: $(head -c 2000 "$ERR")"
}

_JSON_PY='
import json, sys
mode, path = sys.argv[1], sys.argv[2]
text = open(path).read()
try:
    d = json.loads(text)
except ValueError as e:
    print("stdout is not one JSON document (%s); it starts with: %r" % (e, text[:300]), file=sys.stderr)
    sys.exit(3)
class Missing(Exception):
    pass
def g(dotted, default=Missing):
    """The field at a dotted path ("requests.total"); missing fields fail unless a default is given."""
    v = d
    for k in dotted.split("."):
        if isinstance(v, dict) and k in v:
            v = v[k]
        elif default is not Missing:
            return default
        else:
            raise Missing("JSON has no field %r (top-level keys: %s)" % (dotted, sorted(d)))
    return v
def on_schedule(due, rows):
    """Whether the first ROWS entries of per_second hold the requests due in their own spans (a
    row ends at a tick of the threads, not on the second), DUE(t) being those due by t seconds:
    within 2%, give or take what slow exchanges carried over the ends of the row. A request due
    before the start and answered in the row is counted in this row, so its slowest exchange bounds
    what came in over the start; one due in the row and answered after it is counted in the next,
    whose slowest exchange bounds what went out over the end (a stall at 2.9 s shows in the next)."""
    seconds, start, ok = g("per_second"), 0.0, len(g("per_second")) >= rows
    rate = lambda t: (due(t + 0.005) - due(max(t - 0.005, 0))) / (t + 0.005 - max(t - 0.005, 0))
    slowest = [(s["latency_ms"]["max"] or 0) / 1000 for s in seconds]
    for i, s in enumerate(seconds[:rows]):
        end, over_end = s["elapsed_s"], slowest[min(i + 1, len(seconds) - 1)]
        want = due(end) - due(start)
        slack = 0.02 * want + rate(start) * slowest[i] + rate(end) * max(over_end, slowest[i]) + 1
        if abs(s["succeeded"] - want) > slack:
            print("  %.3f-%.3f s: %d succeeded, %.1f due (+-%.1f)" % (start, end, s["succeeded"], want, slack), file=sys.stderr)
            ok = False
        start = end
    return ok
def evaluate(expr):
    return eval(expr, {"d": d, "g": g, "json": json, "on_schedule": on_schedule})
if mode == "eval":
    try:
        v = evaluate(sys.argv[3])
    except Missing as e:
        print(e, file=sys.stderr)
        sys.exit(3)
    print(v if isinstance(v, str) else json.dumps(v))
    sys.exit(0)
failures = 0
for line in sys.stdin:
    expr, _, what = line.strip().partition(" ## ")
    if not expr:
        continue
    try:
        ok = evaluate(expr) is True
        why = ""
    except Exception as e:
        ok, why = False, " [%s: %s]" % (type(e).__name__, e)
    if not ok:
        failures += 1
        print("  expected %s%s%s" % (expr, " (%s)" % what if what else "", why), file=sys.stderr)
if failures:
    brief = {k: d[k] for k in ("requests", "status_codes", "errors", "connections", "duration_s", "rps", "shards") if k in d}
    print("  the report said: %s" % json.dumps(brief), file=sys.stderr)
    sys.exit(1)
'

# json_eval FILE EXPR: prints the Python expression EXPR, where `d` is the JSON document in FILE and
# g("a.b") its field a.b. Exits the test if FILE is not JSON or a field is missing.
json_eval() {
  local v
  v=$("$PYTHON" -c "$_JSON_PY" eval "$1" "$2") || fail "$_LAST_RUN: cannot evaluate '$2' on its JSON output"
  echo "$v"
}

# json_assert FILE EXPR [WHAT]: fails unless EXPR (as in json_eval) is true.
json_assert() {
  local v
  v=$(json_eval "$1" "$2")
  [[ $v == true ]] || fail "${3:-$_LAST_RUN}: expected $2 (got $v)"
}

# kept_schedule FILE EXPR [WHAT]: json_assert of how closely a run kept a schedule (a gap, a pace),
# in a release build only (SANITIZED above).
kept_schedule() {
  ((SANITIZED)) || json_assert "$@"
}

# json_check FILE <<'EOF' ... EOF: one expectation per line, `EXPR` or `EXPR ## WHAT` (as in
# json_eval); checks them all in one python3 start and fails listing every one that is not true.
json_check() {
  "$PYTHON" -c "$_JSON_PY" check "$1" || fail "$_LAST_RUN: its JSON report does not meet the expectations above"
}

# expect_all_ok TOTAL CONNECTIONS PROTOCOL BODY_BYTES: the last run exited 0 and its JSON report
# has TOTAL requests, every one a 200, on CONNECTIONS connections that spoke PROTOCOL, and
# BODY_BYTES of bodies in all.
expect_all_ok() {
  expect_rc 0
  json_check "$OUT" <<EOF
g("requests.succeeded") == $1 and g("requests.failed") == 0 and g("status_codes") == {"200": $1}
g("connections.opened") == $2 and g("connections.protocols") == {"$3": $2}
g("bytes.body_received") == $4
EOF
}

# text_field FILE LABEL: the value after "LABEL:" in an ab-style text report ("Complete requests").
text_field() {
  sed -nE "s/^[[:space:]]*$2:[[:space:]]*([^[:space:]]+).*/\1/p" "$1" | head -n 1
}

# start_background NAME ARGS...: starts stampede in the background with SIGINT at its default
# disposition (a non-interactive shell would start it ignored); sets PID, OUT, ERR.
start_background() {
  local name=$1
  shift
  _LAST_RUN=$name
  OUT=$TEST_TMP/$name.out
  ERR=$TEST_TMP/$name.err
  env --default-signal=INT "$STAMPEDE" "$@" >"$OUT" 2>"$ERR" &
  PID=$!
  _PIDS+=("$PID")
  log "$name: stampede $* (pid $PID)"
}

# wait_background SECONDS: waits for PID to end, at most SECONDS; sets RC.
wait_background() {
  local i
  for i in $(seq $(($1 * 10))); do
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$PID" 2>/dev/null; then
    kill -KILL "$PID"
    fail "$_LAST_RUN: stampede was still running after $1 s"
  fi
  set +e
  wait "$PID"
  RC=$?
  set -e
}

# wait_for_header: waits (at most 30 s) until the background run PID printed its live table's
# header, right before its engine starts (and stampede catches SIGINT), or ended.
wait_for_header() {
  local i
  for ((i = 0; i < 600; i++)); do
    grep -qs "elapsed" "$OUT" "$ERR" && return 0
    kill -0 "$PID" 2>/dev/null || return 0
    sleep 0.05
  done
}

# interrupt_run NAME AFTER_SECONDS ARGS...: start_background, SIGINT AFTER_SECONDS after the run
# printed its live table's header, then wait_background 40; sets RC, ELAPSED (from the header to
# the exit), OUT, ERR like run_stampede. Not from the start: an ASan build on a busy machine took
# over a second to start catching SIGINT (which then killed it, exit 130, without a report).
interrupt_run() {
  local name=$1 after=$2 t0 t1
  shift 2
  start_background "$name" "$@"
  wait_for_header
  t0=$(date +%s%N)
  sleep "$after"
  kill -0 "$PID" 2>/dev/null || fail "$name: stampede ended before the SIGINT; stderr: $(head -c 2000 "$ERR")"
  kill -INT "$PID"
  wait_background 40
  t1=$(date +%s%N)
  ELAPSED=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  log "$name: SIGINT after ${after}s -> exit $RC in ${ELAPSED}s"
}

# only_errors KIND COUNT: Python expression "every error kind is 0 but KIND, which is COUNT"
# (KIND none: all are 0). Written over whatever kinds the report has, so new kinds are covered.
only_errors() {
  if [[ $1 == none ]]; then
    echo '{k: v for k, v in g("errors").items() if v} == {}'
  else
    echo "{k: v for k, v in g(\"errors\").items() if v} == {\"$1\": $2}"
  fi
}

# start_apache DIR: Debian's Apache httpd with mod_http2 (`Protocols h2c http/1.1`: HTTP/2 over
# plain TCP by an `Upgrade: h2c` request or by prior knowledge) on a free port, serving DIR/html/
# (made here, with index.html). Sets APACHE_URL and APACHE_LOG, whose line is: the client's port,
# method, path, protocol (HTTP/1.1 for a 101 and for a request it kept on HTTP/1.1, HTTP/2.0 for
# one sent after the switch) and status.
start_apache() {
  local dir=$1 port pid
  mkdir -p "$dir/html"
  printf 'hello from apache\n' >"$dir/html/index.html"
  for _ in 1 2 3; do  # a free port may be taken before Apache binds it: retry with a new one
    port=$(free_port)
    cat >"$dir/httpd.conf" <<EOF
ServerRoot $dir
ServerName 127.0.0.1
Listen 127.0.0.1:$port
LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule mime_module /usr/lib/apache2/modules/mod_mime.so
LoadModule http2_module /usr/lib/apache2/modules/mod_http2.so
TypesConfig /etc/mime.types
User nobody
Group nogroup
PidFile $dir/httpd.pid
ErrorLog $dir/error.log
LogFormat "%{remote}p %m %U %H %>s" ports
CustomLog $dir/access.log ports
DocumentRoot $dir/html
Protocols h2c http/1.1
KeepAliveTimeout 30
MaxKeepAliveRequests 0
<Directory $dir/html>
  Require all granted
</Directory>
EOF
    : >"$dir/error.log"
    apache2 -f "$dir/httpd.conf" -DFOREGROUND &
    pid=$!
    _PIDS+=("$pid")
    _watch "$pid"
    if wait_for_port "$port" 10 "$pid"; then
      APACHE_URL=http://127.0.0.1:$port
      APACHE_LOG=$dir/access.log
      log "apache $pid on $APACHE_URL"
      return 0
    fi
    _stop_pid "$pid"
    grep -q "Address already in use" "$dir/error.log" || break
  done
  fail "apache did not start; its error.log: $(head -c 2000 "$dir/error.log")"
}

# start_nghttpd NAME --no-tls|--tls [OPTION...]: Debian's nghttpd -v (and OPTIONs) on a free port serving $TEST_TMP/htdocs/
# over h2c, or TLS with the test certificate (make_cert $TEST_TMP first); its frame log goes to
# $TEST_TMP/NAME.log. Sets H2_PORT.
start_nghttpd() {
  local name=$1 pid options=() files=()
  if [[ $2 == --tls ]]; then files=("$TEST_TMP/key.pem" "$TEST_TMP/cert.pem"); else options=(--no-tls); fi
  options+=("${@:3}")
  for _ in 1 2 3; do  # a free port may be taken before nghttpd binds it: retry with new ones
    H2_PORT=$(free_port)
    nghttpd -a 127.0.0.1 -v -d "$TEST_TMP/htdocs" "${options[@]}" "$H2_PORT" "${files[@]}" >"$TEST_TMP/$name.log" 2>&1 &
    pid=$!
    _PIDS+=("$pid")
    _watch "$pid"
    if wait_for_port "$H2_PORT" 10 "$pid"; then
      log "nghttpd $pid ($name) on 127.0.0.1:$H2_PORT"
      return 0
    fi
    _stop_pid "$pid"
  done
  fail "nghttpd did not start; its log: $(head -c 2000 "$TEST_TMP/$name.log")"
}
