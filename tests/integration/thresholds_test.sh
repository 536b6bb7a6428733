#!/usr/bin/env bash
# --threshold and --abort-on-fail: bounds that hold exit 0, one that breaks exits 3 with the full
# report (which bound, what was measured), a flow's step judged alone, and --abort-on-fail
# stopping a run of failures within its first seconds; bad bounds are usage errors (exit 2).
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"
start_serve --threads 1
S=http://127.0.0.1:$SERVE_PORT

# Every kind holding: exit 0, each verdict in the JSON with what was measured.
run_stampede holds -c 2 -n 100 -k -u "$HTTP_URL/?run=holds" --output json \
  --threshold 'p99<5s' --threshold 'mean<=5000' --threshold 'max<1m' --threshold 'errors<1%' \
  --threshold 'errors<=0' --threshold 'rps>10'
expect_rc 0
json_check "$OUT" <<'EOF'
[t["threshold"] for t in g("thresholds")] == ["p99<5s", "mean<=5000", "max<1m", "errors<1%", "errors<=0", "rps>10"]
all(t["passed"] for t in g("thresholds"))
[t["unit"] for t in g("thresholds")] == ["ms", "ms", "ms", "share", "requests", "requests/s"]
g("thresholds")[0]["measured"] == g("latency_ms.p99") and g("thresholds")[2]["measured"] == g("latency_ms.max")
abs(g("thresholds")[5]["measured"] - g("rps")) < 0.01
EOF
assert_eq 200 "$(count_requests "$ACCESS_LOG" 'GET /?run=holds ')" "requests nginx logged"

# One breaks: exit 3 (not 1 or 2), the whole report still printed, the bound marked FAIL.
run_stampede breaks -c 2 -n 100 -k -u "$HTTP_URL/?run=breaks" --threshold 'p99<5s' --threshold 'rps>100000000'
expect_rc 3
grep -qE '^  p99<5s +pass  [0-9.]+ ms$' "$OUT" || fail "breaks: no passing p99 line: $(tail -n 5 "$OUT")"
grep -qE '^  rps>100000000 +FAIL  [0-9.]+ requests/s$' "$OUT" || fail "breaks: no FAIL line: $(tail -n 5 "$OUT")"
grep -q '^Complete requests: *200$' "$OUT" || fail "breaks: the report is not whole"

# Errors as a count: 20 503s against at most 5.
run_stampede error_count -c 1 -n 20 -k -u "$S/status/503" --threshold 'errors<5' --output json
expect_rc 3
json_check "$OUT" <<'EOF'
g("thresholds") == [{"threshold": "errors<5", "passed": False, "measured": 20, "unit": "requests"}]
EOF

# A flow's steps judged apart: /delay/300 is step 2, / is step 1, and the same bound holds for
# one and fails for the other (a bound far from both, so that a loaded machine's stall of a
# GET / does not cross it).
printf 'curl %s/\ncurl %s/delay/300\n' "$S" "$S" >"$TEST_TMP/flow.curl.txt"
run_stampede steps -c 2 -n 5 -k -p "$TEST_TMP/flow.curl.txt" --output json \
  --threshold 'step1.p99<250ms' --threshold 'step2.p50>=300ms' --threshold 'step2.max<250ms'
expect_rc 3
json_check "$OUT" <<'EOF'
[t["passed"] for t in g("thresholds")] == [True, True, False]
g("thresholds")[2]["measured"] == g("steps")[1]["latency_ms"]["max"]
EOF

# --abort-on-fail: a 20 s run of 503s stops at the first second past 10 errors, reason aborted.
run_stampede aborted -c 2 -z 20s -k -u "$S/status/503" --threshold 'errors<10' --abort-on-fail --output json
expect_rc 3
json_check "$OUT" <<'EOF'
g("stop_reason") == "aborted" and g("duration_s") < 3 ## at the first second's tick
g("thresholds")[0]["passed"] is False and g("thresholds")[0]["measured"] >= 10
g("requests.total") + g("requests.abandoned") > 10
EOF
grep -q -- '-- errors<10 can no longer pass: stopping (--abort-on-fail) --' "$ERR" || fail "aborted: no line says why"
# A bound that may still come back (a percentile) never aborts: the run goes to its end.
run_stampede not_aborted -c 1 -z 2s -k -u "$S/delay/20" --threshold 'p99<1ms' --abort-on-fail --output json
expect_rc 3
json_assert "$OUT" 'g("stop_reason") == "duration"'

# Usage errors: nothing sent, exit 2.
run_stampede bad_bound -c 1 -n 1 -u "$HTTP_URL/?run=bad" --threshold 'p99<fast'
expect_rc 2
run_stampede past_the_steps -c 1 -n 1 -u "$HTTP_URL/?run=bad" --threshold 'step2.p99<1s'
expect_rc 2
grep -q "the run has 1 step" "$ERR" || fail "past_the_steps: $(cat "$ERR")"
run_stampede abort_alone -c 1 -n 1 -u "$HTTP_URL/?run=bad" --abort-on-fail
expect_rc 2
assert_eq 0 "$(count_requests "$ACCESS_LOG" 'GET /?run=bad ')" "requests sent by bad command lines"
pass
