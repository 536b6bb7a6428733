#!/usr/bin/env bash
# --output csv and -e: the rows a second add up to what nginx logged, ab's percentile file has
# its 100 rising rows, a sweep's steps come one a line; an unwritable -e is a usage error.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

run_stampede csv -c 2 -z 2500ms -k -u "$HTTP_URL/?run=csv" --output csv -e "$TEST_TMP/p.csv"
expect_rc 0
head -n 1 "$OUT" | grep -qx 'elapsed_s,users,succeeded,failed,rps,min_ms,mean_ms,p99_ms,max_ms,received_bytes_per_s,status_codes' ||
  fail "csv: header: $(head -n 1 "$OUT")"
rows=$(($(wc -l <"$OUT") - 1))
((rows == 3)) || fail "csv: $rows rows for 2.5 s (1 s, 2 s, the last half)"
succeeded=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$OUT")
assert_eq "$(count_requests "$ACCESS_LOG" 'GET /?run=csv ')" "$succeeded" "requests nginx logged against the rows' successes"
awk -F, 'NR > 1 && $11 != "200:" $3 { bad = 1 } END { exit bad }' "$OUT" || fail "csv: status codes do not match the successes"
grep -qx 'Percentage served,Time in ms' <(head -n 1 "$TEST_TMP/p.csv") || fail "-e: header"
assert_eq 101 "$(wc -l <"$TEST_TMP/p.csv")" "-e's lines"
awk -F, 'NR > 2 && ($1 != NR - 2 || $2 < last) { bad = 1 } NR > 1 { last = $2 } END { exit bad }' "$TEST_TMP/p.csv" ||
  fail "-e: percentiles 0 to 99 do not rise: $(head -n 5 "$TEST_TMP/p.csv")"

run_stampede csv_sweep --sweep 1,2 -z 1s --warmup 0 -k -u "$HTTP_URL/?run=csv_sweep" --output csv
expect_rc 0
assert_eq 3 "$(wc -l <"$OUT")" "a header and a line a step"
steps=$(awk -F, 'NR > 1 { s += $10 } END { print s }' "$OUT")
assert_eq "$(count_requests "$ACCESS_LOG" 'GET /?run=csv_sweep ')" "$steps" "requests nginx logged against the steps'"

run_stampede unwritable -c 1 -n 1 -u "$HTTP_URL/?run=unwritable" -e "$TEST_TMP/no/such/dir/p.csv"
expect_rc 2
grep -q "^stampede: -e: cannot write" "$ERR" || fail "unwritable: $(cat "$ERR")"
assert_eq 0 "$(count_requests "$ACCESS_LOG" 'GET /?run=unwritable ')" "requests sent with an unwritable -e"
pass
