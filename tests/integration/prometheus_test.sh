#!/usr/bin/env bash
# --prometheus: a real Prometheus (Debian's) scrapes stampede's live metrics once a second while
# it loads nginx; its HTTP API then holds the run's counts (up to the last scrape, so within the
# last seconds of what nginx logged), the status codes, the latency histogram and a target that
# was up. A bad or busy address is a usage error before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
command -v prometheus >/dev/null || fail "prometheus is not installed (scripts/install-deps.sh --test)"
start_nginx "$TEST_TMP/nginx"
METRICS_PORT=$(free_port)
PROM_PORT=$(free_port)
cat >"$TEST_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: stampede
    static_configs:
      - targets: ["127.0.0.1:$METRICS_PORT"]
EOF
timeout -k 5 180 prometheus --config.file="$TEST_TMP/prometheus.yml" --storage.tsdb.path="$TEST_TMP/tsdb" \
  --web.listen-address="127.0.0.1:$PROM_PORT" >"$TEST_TMP/prometheus.log" 2>&1 &
PROM_PID=$!
_PIDS+=("$PROM_PID")
_watch "$PROM_PID"
wait_for_port "$PROM_PORT" 60 "$PROM_PID" || fail "prometheus did not start: $(tail -n 5 "$TEST_TMP/prometheus.log")"
log "prometheus (pid $PROM_PID) on 127.0.0.1:$PROM_PORT, scraping 127.0.0.1:$METRICS_PORT"

run_stampede scraped -c 4 -z 6s -k -u "$HTTP_URL/?run=prom" --prometheus "127.0.0.1:$METRICS_PORT" --output json
expect_rc 0
cp "$OUT" "$TEST_TMP/run.json"
grep -qxF "stampede: --prometheus: metrics at http://127.0.0.1:$METRICS_PORT/metrics" "$ERR" ||
  fail "scraped: the metrics' address is not said: $(head -c 500 "$ERR")"
assert_eq "$(count_requests "$ACCESS_LOG" 'GET /?run=prom ')" "$(json_eval "$OUT" 'g("requests.succeeded")')" "requests nginx logged against the run's"

# query EXPR: the value of a PromQL expression over the last minute, from Prometheus's HTTP API.
query() {
  curl -sf --get "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1" |
    "$PYTHON" -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "none")'
}
# Once a scrape found stampede gone (up 0), every scrape of the run has been written.
for _ in $(seq 50); do
  [[ $(query 'min_over_time(up{job="stampede"}[1m])') == 0 ]] && break
  sleep 0.2
done
scraped=$(query 'max_over_time(stampede_requests_total{outcome="succeeded"}[1m])')
"$PYTHON" - "$TEST_TMP/run.json" "$scraped" <<'PY' || fail "Prometheus holds $scraped successes"
import json, sys
run = json.load(open(sys.argv[1]))
scraped = float(sys.argv[2])
seconds = run["per_second"]
done = [sum(s["succeeded"] for s in seconds[:i + 1]) for i in range(len(seconds))]
# Metrics change once a second and are scraped once a second: the last scrape saw at least what
# had completed three seconds before the end, and never more than the total.
assert done[-4] <= scraped <= run["requests"]["succeeded"], (scraped, done)
PY
assert_eq 1 "$(query 'max_over_time(up{job="stampede"}[1m])')" "the target up"
assert_eq "$(query 'max_over_time(stampede_requests_total{outcome="succeeded"}[1m])')" \
  "$(query 'max_over_time(stampede_responses_total{status="200"}[1m])')" "successes against 200s"
assert_eq "$(query 'max_over_time(stampede_request_duration_seconds_count[1m])')" \
  "$(query 'max_over_time(stampede_request_duration_seconds_bucket{le="+Inf"}[1m])')" "the histogram's count against its +Inf bucket"
p99=$(query 'histogram_quantile(0.99, max_over_time(stampede_request_duration_seconds_bucket[1m]))')
"$PYTHON" -c "import sys; sys.exit(0 if 0 < float('$p99') <= 10 else 1)" || fail "p99 from Prometheus's histogram: $p99"
assert_eq 4 "$(query 'max_over_time(stampede_users_running[1m])')" "users running"

# Port 0: the kernel's pick, said on stderr and served there for the run.
run_stampede any_port -c 1 -n 1 -u "$HTTP_URL/?run=any_port" --prometheus 127.0.0.1:0
expect_rc 0
grep -qE '^stampede: --prometheus: metrics at http://127\.0\.0\.1:[1-9][0-9]*/metrics$' "$ERR" ||
  fail "any_port: the port bound is not said: $(head -c 500 "$ERR")"
run_stampede bad_address -c 1 -n 1 -u "$HTTP_URL/?run=prom_bad" --prometheus 127.0.0.1:99999
expect_rc 2
grep -q "^stampede: --prometheus 127.0.0.1:99999: a port" "$ERR" || fail "bad_address: $(cat "$ERR")"
run_stampede busy_address -c 1 -n 1 -u "$HTTP_URL/?run=prom_busy" --prometheus "127.0.0.1:$PROM_PORT"
expect_rc 2
grep -q "cannot listen" "$ERR" || fail "busy_address: $(cat "$ERR")"
assert_eq 0 "$(count_requests "$ACCESS_LOG" 'GET /?run=prom_')" "requests sent with a bad --prometheus"
pass
