#!/usr/bin/env bash
# --stages and --ramp: the users follow the stages second by second (the live table's users
# column), each request nginx logged is in the report, and none started twice.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

# Up to 4 users over 2 s, 4 for 2 s, down to 0 over 2 s; each user sends about 10 a second.
# At 1 s the level is 2, from 2 s to 4 s it is 4, at 5 s 2 (a step falling at a tick's moment
# may be counted either side of it: one user either way).
run_stampede stages --stages 2s:4,2s:4,2s:0 --think 100ms -k -u "$HTTP_URL/?run=stages" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
g("stop_reason") == "duration" and 6.0 <= g("duration_s") <= 6.5 ## the stages' length
g("users") == 4 and g("users_started") == 4 ## the peak, and no user started twice
[s["users_running"] for s in g("per_second")][:1] in ([1], [2], [3]) ## level 2 at 1 s
all(s["users_running"] in (3, 4) for s in g("per_second")[1:4]) ## level 4 from 2 s to 4 s
abs(g("per_second")[4]["users_running"] - 2) <= 1 ## level 2 at 5 s
g("per_second")[-1]["users_running"] == 0
g("requests.failed") == 0 and 120 <= g("requests.total") <= 170 ## 16 user-seconds at ~10 a second
EOF2
total=$(json_eval "$OUT" 'g("requests.total")')
assert_eq "$total" "$(count_requests "$ACCESS_LOG" 'GET /?run=stages HTTP/1.1')" "requests nginx logged for the stages"

# --ramp 2s: 4 users start 0.5 s apart (at 0, 0.5, 1 and 1.5 s), then all 4 run until -z's end.
run_stampede ramp -c 4 --ramp 2s -z 3s --think 100ms -k -u "$HTTP_URL/?run=ramp" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
g("per_second")[0]["users_running"] in (2, 3) ## two started by 1 s, a third at 1 s
g("per_second")[1]["users_running"] == 4 ## all 4 from 1.5 s (the last row is the users ending)
g("users_started") == 4 and g("requests.failed") == 0
80 <= g("requests.total") <= 92 ## 3 + 2.5 + 2 + 1.5 user-seconds at ~10 a second
EOF2
total=$(json_eval "$OUT" 'g("requests.total")')
assert_eq "$total" "$(count_requests "$ACCESS_LOG" 'GET /?run=ramp HTTP/1.1')" "requests nginx logged for the ramp"

# The open model's profiles: --ramp with --rate raises the rate from 0 (250 in the first second,
# 750 in the second, then 1000 a second), --stages in N/s follow the stages' areas. A request
# waits for a user (capped) only when all 25 of a thread's users (-c 50 on 2 threads) are busy:
# nginx answers in a fraction of a millisecond, but a busy machine can stall it for 50 ms.
run_stampede rate_ramp --rate 1000 --ramp 2s -z 4s -c 50 -cpuNumber 2 -k -u "$HTTP_URL/?run=rate_ramp" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
g("requests.succeeded") == 3000 and g("rate.scheduled") == 3000 ## 1000 x 2 s / 2 + 1000 x 2 s
g("rate.asked") == 750 and abs(g("rate.started") - 750) <= 750 * 0.01 ## on average
on_schedule(lambda t: 250 * t * t if t <= 2 else 1000 + 1000 * (min(t, 4) - 2), 4) ## 250, 750, 1000, 1000
g("rate.cap.missed") == 0 and (g("rate.cap.capped") == 0 or g("users_started") >= 25)
EOF2
assert_eq 3000 "$(count_requests "$ACCESS_LOG" 'GET /?run=rate_ramp HTTP/1.1')" "requests nginx logged for the rate's ramp"

run_stampede rate_stages --stages 1s:1000/s,1s:1000/s,1s:0/s -k -u "$HTTP_URL/?run=rate_stages" --output json
expect_rc 0
json_check "$OUT" <<'EOF2'
g("requests.succeeded") == 2000 and g("rate.scheduled") == 2000 ## 500 + 1000 + 500
g("stop_reason") == "duration" and g("duration_s") < 3.5
on_schedule(lambda t: 500 * t * t if t <= 1 else 500 + 1000 * (t - 1) if t <= 2 else 2000 - 500 * (3 - min(t, 3)) ** 2, 3)
g("users") <= 10000 and g("users_started") < 100 + g("latency_ms.max") ## the cap 1000/s x 10 s at most; started: no more than were due within the slowest exchange (1 a ms), so a CI stall of 100 ms may need 100 more
EOF2
assert_eq 2000 "$(count_requests "$ACCESS_LOG" 'GET /?run=rate_stages HTTP/1.1')" "requests nginx logged for the rate's stages"
pass
