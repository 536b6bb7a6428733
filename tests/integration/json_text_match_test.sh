#!/usr/bin/env bash
# The JSON report is internally consistent, and the text report of the same run shape agrees with it.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

run_stampede json -k -c 5 -n 400 -u "$HTTP_URL/?run=json" --output json
expect_rc 0
assert_eq 2000 "$(count_requests "$ACCESS_LOG" 'GET /?run=json HTTP/1.1')" "nginx requests"
json_assert "$OUT" 'g("requests.total") == 2000 and g("requests.succeeded") == 2000'
json_assert "$OUT" 'g("requests.succeeded") + g("requests.failed") == g("requests.total")' "succeeded + failed == total"
json_assert "$OUT" 'sum(g("status_codes").values()) == g("requests.total")' "sum(status_codes) == total"
json_assert "$OUT" 'g("duration_s") > 0' "duration_s is positive"
json_assert "$OUT" 'abs(g("rps") - g("requests.total") / g("duration_s")) <= 0.01 * g("rps")' \
  "rps == total / duration_s within 1%"
json_assert "$OUT" 'len(g("per_second")) > 0' "per_second is not empty"
json_assert "$OUT" 'sum(s["succeeded"] for s in g("per_second")) == g("requests.succeeded")' \
  "sum of per_second succeeded == requests.succeeded"
json_assert "$OUT" 'sum(s["failed"] for s in g("per_second")) == g("requests.failed")' \
  "sum of per_second failed == requests.failed"
json_assert "$OUT" '{c: sum(s["status_codes"].get(c, 0) for s in g("per_second")) for c in g("status_codes")} == g("status_codes")' \
  "per_second status codes add up to status_codes"
json_assert "$OUT" 'all(a["elapsed_s"] < b["elapsed_s"] for a, b in zip(g("per_second"), g("per_second")[1:]))' \
  "per_second elapsed_s increases"
json_assert "$OUT" 'g("per_second")[-1]["elapsed_s"] <= g("duration_s") + 0.5' "the last second ends within the run"
json_assert "$OUT" '(lambda l: 0 < l["min"] <= l["p50"] <= l["p90"] <= l["p95"] <= l["p99"] <= l["p999"] <= 1.01 * l["max"] and l["min"] <= l["mean"] <= l["max"])(g("latency_ms"))' \
  "latency_ms min <= percentiles <= max"
json_assert "$OUT" "g(\"bytes.body_received\") == 2000 * $INDEX_BYTES" "body bytes"

run_stampede text -k -c 5 -n 400 -u "$HTTP_URL/?run=text"
expect_rc 0
assert_eq 2000 "$(count_requests "$ACCESS_LOG" 'GET /?run=text HTTP/1.1')" "nginx requests of the text run"
assert_eq 2000 "$(text_field "$OUT" "Complete requests")" "text 'Complete requests'"
assert_eq 0 "$(text_field "$OUT" "Failed requests")" "text 'Failed requests'"
pass
