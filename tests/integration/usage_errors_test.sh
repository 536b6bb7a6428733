#!/usr/bin/env bash
# Bad command lines exit 2 with one line on stderr and send nothing.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

# usage_error NAME ARGS...: the run must exit 2, print exactly one line on stderr, reach no server.
usage_error() {
  local name=$1 lines
  shift
  STAMPEDE_LIMIT=15 run_stampede "$name" "$@"
  expect_rc 2
  lines=$(grep -c '' "$ERR" || true)
  ((lines == 1)) || fail "$name: expected exactly one line on stderr, got $lines:
$(head -c 2000 "$ERR")"
  log "$name: $(cat "$ERR")"
}

usage_error unknown_flag -c 1 -n 1 -u "$HTTP_URL/?run=unknown_flag" --no-such-flag
usage_error empty_host -c 1 -n 1 -u 'http://'
usage_error ftp_scheme -c 1 -n 1 -u 'ftp://x'
usage_error zero_users -c 0 -n 1 -u "$HTTP_URL/?run=zero_users"
usage_error missing_body_file -c 1 -n 1 -u "$HTTP_URL/?run=missing_body_file" -data @/nonexistent
# `stampede serve` checks its counts and words before it listens (--threads -1 was read as
# 4,294,967,295 threads; a stray word was ignored).
usage_error serve_negative_threads serve --port 0 --threads -1
usage_error serve_zero_threads serve --port 0 --threads 0
usage_error serve_too_many_threads serve --port 0 --threads 1025
usage_error serve_port_out_of_range serve --port 65536
usage_error serve_negative_port serve --port -1
usage_error serve_stray_word serve --port 0 extra
assert_eq 0 "$(count_requests "$ACCESS_LOG")" "requests nginx saw from the bad command lines"
pass
