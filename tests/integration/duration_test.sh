#!/usr/bin/env bash
# -z: users send until the time is up, and the requests in flight then finish and are counted
# (never abandoned, as -timeout's hard stop abandons them); --think pauses between requests:
# exact counts from serve's /delay and nginx's log.
source "$(dirname "$0")/lib.sh" "$@"
start_serve
start_nginx "$TEST_TMP/nginx"
SERVE_URL="http://127.0.0.1:$SERVE_PORT"

# Each request takes 0.8 s: a user starts at 0 and 0.8 s, not at 1.6 s, so 4 users send 8, and the
# run ends when the last of them is answered, at about 1.6 s. Both edges have 0.4 s to spare: a
# start 0.3 s late beside CI's background build once left a user one request (-z 1, 0.7 s).
run_stampede delay -c 4 -z 1.2 -k -t 3 -u "$SERVE_URL/delay/800" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
g("requests.total") == 8 ## two requests a user: at 0 and 0.8 s, none at 1.6 s
g("requests.succeeded") == 8 and g("requests.abandoned") == 0 ## the ones in flight at 1.2 s were answered and counted
g("stop_reason") == "duration"
1.55 <= g("duration_s") <= 2.4 ## the run waited for the last answers, and no longer
EOF2

# A request in flight when the time is up ends as it would: here by -t. Starts at 0, 0.3, 0.6 and
# 0.9 s, each cut by -t: every request a timeout, none abandoned, where -timeout 1.1 would abandon
# the last. A timeout fires late on a busy machine (checked every 5 ms at best), so a user whose
# three timeouts came 0.2 s late in all sends three, not four (14 of 16 once, with -z 1).
run_stampede timeouts -c 4 -z 1.1 -k -t 0.3 -u "$SERVE_URL/delay/700" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
12 <= g("requests.total") <= 16 and g("errors.timeout") == g("requests.total") ## 3 or 4 a user
g("requests.abandoned") == 0
g("stop_reason") == "duration"
1.2 <= g("duration_s") <= 1.9 ## the last ones cut by -t after -z's end
EOF2

# Against nginx, as fast as it answers: every request nginx logged is in the report, and the
# other way round; -n 0 says the same as no -n; and the text report says nothing stopped early.
run_stampede nginx -c 4 -n 0 -z 2s -k -u "$HTTP_URL/?run=z" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
g("requests.total") > 100 and g("requests.failed") == 0
g("requests.abandoned") == 0
g("stop_reason") == "duration"
2.0 <= g("duration_s") <= 2.5
EOF2
total=$(json_eval "$OUT" 'g("requests.total")')
assert_eq "$total" "$(count_requests "$ACCESS_LOG" 'GET /?run=z HTTP/1.1')" "requests nginx logged"

# --think 500ms: a user sends at 0, 0.5, 1, 1.5 and 2 s (each later by the latencies before it:
# 2.4 s leaves room for 100 ms of them, as beside CI's background build), never at 2.5, and
# pauses outside its latencies.
run_stampede think -c 4 -z 2.4s --think 500ms -k -u "$HTTP_URL/?run=think" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
g("requests.total") == 20 and g("requests.failed") == 0 ## five requests a user, 0.5 s apart
g("latency_ms.max") < 450 ## the pauses (500 ms) are not in the latencies
EOF2
assert_eq 20 "$(count_requests "$ACCESS_LOG" 'GET /?run=think HTTP/1.1')" "requests of the think run nginx logged"

run_stampede text -c 2 -z 500ms -k -u "$HTTP_URL/?run=text"
expect_rc 0
grep -q "Stopped early" "$OUT" && fail "a -z run's end is its own, yet the report says: $(grep 'Stopped early' "$OUT")"
complete=$(text_field "$OUT" "Complete requests")
assert_eq "$complete" "$(count_requests "$ACCESS_LOG" 'GET /?run=text HTTP/1.1')" "requests of the text run nginx logged"
pass
