#!/usr/bin/env bash
# `stampede serve --threads 1` takes 5,000 keep-alive users at once: every request answered in time.
source "$(dirname "$0")/lib.sh" "$@"

# 5,000 connections hold 5,000 descriptors in each process (10,000 in all).
ulimit -n 20000 2>/dev/null || true
(($(ulimit -n) >= 6000)) || fail "needs 6,000 open files per process (ulimit -n is $(ulimit -n))"

start_serve --threads 1
PORT=$SERVE_PORT

# Taking one waiting connection per turn of its event loop, the target left thousands of users
# in its accept queue for seconds while the others kept it busy: some 1,500 of these requests
# timed out. Now the slowest takes about a second (while the 5,000 connect), well within -t 3.
STAMPEDE_LIMIT=90 run_stampede many -c 5000 -k -n 20 -t 3 -timeout 60 --output json \
  -u "http://127.0.0.1:$PORT/"
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 100000 ## 5,000 users x 20 requests
g("requests.failed") == 0
g("connections.opened") == 5000 ## one per user: none timed out and reconnected
g("stop_reason") == "completed"
EOF
kill -0 "$SERVE_PID" 2>/dev/null || fail "serve died during the run: $(head -c 1000 "$TEST_TMP/serve.err")"
pass
