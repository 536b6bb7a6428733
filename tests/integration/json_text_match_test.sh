#!/usr/bin/env bash
# The JSON report is internally consistent (also over a multi-second run), and the text report agrees.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

run_stampede json -k -c 5 -n 400 -u "$HTTP_URL/?run=json" --output json
expect_rc 0
assert_eq 2000 "$(count_requests "$ACCESS_LOG" 'GET /?run=json HTTP/1.1')" "nginx requests"
json_check "$OUT" <<EOF
g("requests.total") == 2000 and g("requests.succeeded") == 2000
g("requests.succeeded") + g("requests.failed") == g("requests.total")
sum(g("status_codes").values()) == g("requests.total")
g("duration_s") > 0
abs(g("rps") - g("requests.total") / g("duration_s")) <= 0.01 * g("rps") ## rps == total / duration_s within 1%
len(g("per_second")) > 0 ## per_second is not empty
sum(s["succeeded"] for s in g("per_second")) == g("requests.succeeded") ## per_second succeeded adds up
sum(s["failed"] for s in g("per_second")) == g("requests.failed") ## per_second failed adds up
{c: sum(s["status_codes"].get(c, 0) for s in g("per_second")) for c in g("status_codes")} == g("status_codes") ## per_second status codes add up
all(a["elapsed_s"] < b["elapsed_s"] for a, b in zip(g("per_second"), g("per_second")[1:])) ## per_second elapsed_s increases
g("per_second")[-1]["elapsed_s"] <= g("duration_s") + 0.5 ## the last second ends with the run
(lambda l: 0 < l["min"] <= l["p50"] <= l["p90"] <= l["p95"] <= l["p99"] <= l["p999"] <= 1.01 * l["max"])(g("latency_ms")) ## latency percentiles are ordered
g("latency_ms.min") <= g("latency_ms.mean") <= g("latency_ms.max")
g("bytes.body_received") == 2000 * $INDEX_BYTES
EOF

run_stampede text -k -c 5 -n 400 -u "$HTTP_URL/?run=text"
expect_rc 0
assert_eq 2000 "$(count_requests "$ACCESS_LOG" 'GET /?run=text HTTP/1.1')" "nginx requests of the text run"
assert_eq 2000 "$(text_field "$OUT" "Complete requests")" "text 'Complete requests'"
assert_eq 0 "$(text_field "$OUT" "Failed requests")" "text 'Failed requests'"

# A run that spans several seconds (-n 0: until -timeout), so per_second has rows to add up.
run_stampede timed -k -c 4 -n 0 -timeout 2.5 -u "$HTTP_URL/?run=timed" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") > 0
g("requests.succeeded") + g("requests.failed") == g("requests.total")
sum(g("status_codes").values()) == g("requests.total")
g("stop_reason") == "time_limit"
2.4 <= g("duration_s") <= 4 ## -timeout 2.5 ends the run at about 2.5 s
abs(g("rps") - g("requests.total") / g("duration_s")) <= 0.01 * g("rps") ## rps == total / duration_s within 1%
len(g("per_second")) >= 2 ## one row per second
sum(s["succeeded"] for s in g("per_second")) == g("requests.succeeded") ## per_second succeeded adds up
sum(s["failed"] for s in g("per_second")) == g("requests.failed") ## per_second failed adds up
{c: sum(s["status_codes"].get(c, 0) for s in g("per_second")) for c in g("status_codes")} == g("status_codes") ## per_second status codes add up
all(a["elapsed_s"] < b["elapsed_s"] for a, b in zip(g("per_second"), g("per_second")[1:])) ## per_second elapsed_s increases
g("per_second")[-1]["elapsed_s"] <= g("duration_s") + 0.5 ## the last second ends with the run
0 <= g("requests.abandoned") <= 4 ## at most one in-flight request per user at the time limit
EOF
total=$(json_eval "$OUT" 'g("requests.total")')
abandoned=$(json_eval "$OUT" 'g("requests.abandoned")')
logged=$(count_requests "$ACCESS_LOG" 'GET /?run=timed HTTP/1.1')
assert_le "$total" "$logged" "nginx saw every completed request of the timed run"
assert_le "$logged" $((total + abandoned)) "nginx saw nothing beyond completed + abandoned requests"
pass
