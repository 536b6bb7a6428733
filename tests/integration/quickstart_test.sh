#!/usr/bin/env bash
# The README's quick start as a new user pastes it: every ```sh block between its quick-start
# markers runs in order in one shell, from a folder whose build/ is the binary under test, against
# the `stampede serve` its first block starts (on a free port instead of 8080); a command that
# fails fails the test. Then the mission's first command: `-c 100 -n 100`, over well under a
# second with -k, still prints a row. Costs about 8 s.
source "$(dirname "$0")/lib.sh" "$@"
README=$(realpath "$(dirname "$0")/../../README.md")
PORT=$(free_port)
ln -s "$(dirname "$STAMPEDE")" "$TEST_TMP/build"  # the README's `export PATH="$PWD/build:$PATH"`
SCRIPT=$TEST_TMP/quickstart.sh
{
  echo 'set -euo pipefail'
  echo 'trap '\''kill $(jobs -p) 2>/dev/null || true'\'' EXIT  # the serve the first block started'
  awk '/<!-- quick-start:begin -->/ { on = 1 }
       /<!-- quick-start:end -->/ { on = 0 }
       on && /^```sh$/ { code = 1; n++; printf "echo \"--- quick start, block %d\" >&2\n", n; next }
       code && /^```$/ { code = 0; next }
       code' "$README" | sed "s/8080/$PORT/g"
} >"$SCRIPT"
blocks=$(grep -c '^echo "--- quick start, block' "$SCRIPT")
((blocks >= 6)) || fail "the quick start has $blocks command blocks: the markers or fences moved?"
(cd "$TEST_TMP" && timeout -k 5 120 bash "$SCRIPT" >"$TEST_TMP/quickstart.out" 2>"$TEST_TMP/quickstart.err") ||
  fail "a quick-start block failed (exit $?): $(tail -n 20 "$TEST_TMP/quickstart.err")"
for run in 'Complete requests: *10000$' 'Steps (each user' 'Connections: *100 opened' 'Protocols: *h2c (4 connections)' 'gRPC status codes: *OK:'; do
  grep -q "$run" "$TEST_TMP/quickstart.out" || fail "the quick start's output lacks /$run/: $(head -c 2000 "$TEST_TMP/quickstart.out")"
done
log "ran $blocks blocks of the README's quick start"

start_serve
run_stampede short -c 100 -n 100 -k -u "http://127.0.0.1:$SERVE_PORT/"
expect_rc 0
grep -qE '^ +[0-9]+\.[0-9]s│ +[0-9]+│ +10000│ +0│' "$OUT" || fail "a run under a second shows no row: $(head -n 4 "$OUT")"
pass
