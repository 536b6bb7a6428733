#!/usr/bin/env bash
# A run sharded over three "hosts" (network namespaces, each its own address) against nginx in a
# fourth: each shard takes its slice and starts at the same --start-at; `stampede report` merges
# their saved runs into the counts nginx logged, with the percentiles of one process sending the
# same load, and names a shard that was killed or interrupted (exit 5).
source "$(dirname "$0")/lib.sh" "$@"
source "$(dirname "$0")/netns.sh"

netns_lab 3
start_lab_target
URL=$LAB_URL/delay/50

# in_host I NAME ARGS...: stampede in host I's namespace, in the background; sets PIDS[I].
PIDS=()
in_host() {
  local i=$1 name=$2
  shift 2
  # ip execs timeout, which runs stampede as its child: PIDS[I] is that timeout.
  ip netns exec "${HOST_NS[i]}" timeout -k 5 60 "$STAMPEDE" "$@" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" &
  PIDS[i]=$!
  _PIDS+=("$!")
}

# wait_hosts NAME: waits for the shards started by in_host; sets RCS[I].
RCS=()
wait_hosts() {
  local i
  for i in "${!PIDS[@]}"; do
    set +e
    wait "${PIDS[i]}"
    RCS[i]=$?
    set -e
    log "$1: shard $i on ${HOST_ADDR[i]} -> exit ${RCS[i]}"
  done
  PIDS=()
}

# in_lines FILTER: the access log's lines containing FILTER.
in_lines() { count_requests "$ACCESS_LOG" "$1"; }

# --- One process, for the percentiles the shards should match: three threads of 10 users, as
# the shards are three processes of 10 (so a busy machine gives both the same share of CPU).
in_host 0 single -c 30 -n 40 -k -cpuNumber 3 -u "$URL?run=single" --output json
wait_hosts single
assert_eq 0 "${RCS[0]}" "one process's exit status"

# --- The same load in three shards, started together.
START=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%S.%3NZ)
for i in 0 1 2; do
  in_host "$i" "shard$i" -c 30 -n 40 -k -cpuNumber 1 -u "$URL?run=sharded" --shard "$((i + 1))/3" \
    --start-at "$START" --save "$TEST_TMP/shard$i.stampede"
done
wait_hosts sharded
for i in 0 1 2; do
  assert_eq 0 "${RCS[i]}" "shard $i's exit status ($(head -c 500 "$TEST_TMP/shard$i.err"))"
  grep -q "^Shards: *shard $((i + 1)) of 3 (run " "$TEST_TMP/shard$i.out" || fail "shard $i's report does not say which shard it is"
done
run_stampede merged report "$TEST_TMP"/shard{0,1,2}.stampede --output json
expect_rc 0
assert_eq 1200 "$(in_lines 'run=sharded')" "requests nginx saw from the shards"
# 10 users a shard, the remainder (none here) to the first: 400 requests from each host.
for i in 0 1 2; do
  assert_eq 400 "$(in_lines "${HOST_ADDR[i]} 200 \"GET /delay/50?run=sharded")" "requests from host $i"
done
json_check "$OUT" <<EOF
g("requests.total") == 1200 and g("requests.succeeded") == 1200 ## every request of every shard
g("status_codes") == {"200": 1200}
g("users") == 30
g("shards.count") == 3 and g("shards.missing") == [] and [s["index"] for s in g("shards.held")] == [0, 1, 2]
all(0 <= s["skew_ms"] < 100 for s in g("shards.held")) ## each started within 100 ms of --start-at
g("shards.start_spread_ms") < 100
EOF
# The merged latencies against each shard's own (exact: its mean is theirs weighted by their
# requests, its percentiles lie among theirs) and one process's (the same load and 50 ms answers,
# in another run: within 20%).
cp "$OUT" "$TEST_TMP/merged.json"
for i in 0 1 2; do
  run_stampede "alone$i" report "$TEST_TMP/shard$i.stampede" --output json
  expect_rc 5  # the others are missing
done
"$PYTHON" - "$TEST_TMP/merged.json" "$TEST_TMP/single.out" "$TEST_TMP"/alone{0,1,2}.out <<'EOF' ||
import json, sys
merged, one, *shards = (json.load(open(p)) for p in sys.argv[1:])
lat = lambda run: run["latency_ms"]
weighted = sum(s["requests"]["total"] * lat(s)["mean"] for s in shards) / merged["requests"]["total"]
print(f"  mean: merged {lat(merged)['mean']} ms, the shards' weighted {weighted:.3f} ms", file=sys.stderr)
assert abs(lat(merged)["mean"] - weighted) <= 0.002, "merged mean"
for key in ("p50", "p90", "p99"):
    own = [lat(s)[key] for s in shards]
    print(f"  {key}: merged {lat(merged)[key]} ms, shards {own}, one process {lat(one)[key]} ms", file=sys.stderr)
    assert min(own) * 0.99 <= lat(merged)[key] <= max(own) * 1.01, key
for key in ("p50", "mean"):
    assert abs(lat(merged)[key] - lat(one)[key]) <= 0.2 * lat(one)[key], key + " against one process"
EOF
  fail "the merged latencies do not agree with the shards' or one process's"
# The verdict is the merged run's: one exit status.
run_stampede judged report "$TEST_TMP"/shard{0,1,2}.stampede --threshold 'p99<5s' --threshold 'rps>1'
expect_rc 0
run_stampede failed report "$TEST_TMP"/shard{0,1,2}.stampede --threshold 'p50<1ms'
expect_rc 3
grep -q "^Shards: *3 of 3 (run [0-9a-f]\{12\}); starts [0-9.]* ms apart; the latest [0-9.]* ms after --start-at" "$OUT" ||
  fail "the merged report has no Shards line: $(grep -m1 Shards "$OUT")"

# --- Refused: the same shard twice, shards of another run, a shard with a run that is none.
run_stampede twice report "$TEST_TMP"/shard{0,1,0}.stampede
expect_rc 2
grep -q "shard 1/3 of run [0-9a-f]* is given twice" "$ERR" || fail "no message for a shard given twice: $(cat "$ERR")"
in_host 1 other -c 3 -n 1 -u "$URL?run=sharded" --shard 2/3 --save "$TEST_TMP/other1.stampede"
wait_hosts other
run_stampede other report "$TEST_TMP"/shard0.stampede "$TEST_TMP"/other1.stampede
expect_rc 2
grep -q "shards of different runs cannot merge" "$ERR" || fail "no message for shards of two runs: $(cat "$ERR")"

# --- A Kubernetes Indexed Job's way (--shards N, the index from JOB_COMPLETION_INDEX), with
# shard 1 killed and shard 2 stopped by SIGTERM before their -z is up.
START=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%S.%3NZ)
for i in 0 1 2; do
  JOB_COMPLETION_INDEX=$i in_host "$i" "job$i" -c 6 -z 5s -k -cpuNumber 1 -u "$URL?run=job" \
    --shards 3 --start-at "$START" --save "$TEST_TMP/job$i.stampede"
done
# Once shards 1 and 2 have sent 10 requests each (they run, and catch SIGTERM), well before -z ends.
for i in 1 2; do
  until_lines "$ACCESS_LOG" "^${HOST_ADDR[i]//./\\.} .*run=job" 10 10 || fail "shard $i sent no 10 requests"
done
# The stampede under each `timeout` (which would not pass SIGKILL on).
kill -KILL "$(pgrep -P "${PIDS[1]}")"
kill -TERM "$(pgrep -P "${PIDS[2]}")"
wait_hosts job
assert_eq 0 "${RCS[0]}" "the whole shard's exit status"
assert_eq 137 "${RCS[1]}" "the killed shard's exit status"
assert_eq 0 "${RCS[2]}" "the interrupted shard's exit status (it printed its report)"
[[ ! -s $TEST_TMP/job1.stampede ]] || fail "the killed shard left a saved run: $(ls -la "$TEST_TMP"/job*; head -c 300 "$TEST_TMP/job1.err")"
# As `stampede report shard-*.stampede` would: the killed shard's file is there, and empty.
run_stampede incomplete report "$TEST_TMP"/job{0,1,2}.stampede --output json
expect_rc 5
grep -q "job1.stampede is empty: its run did not end" "$ERR" || fail "the empty file is not named: $(cat "$ERR")"
grep -q "shard 2 of 3 (run [0-9a-f]*) is missing" "$ERR" || fail "the missing shard is not named: $(cat "$ERR")"
grep -q "shard 3 of 3 (run [0-9a-f]*) was interrupted" "$ERR" || fail "the interrupted shard is not named: $(cat "$ERR")"
json_check "$OUT" <<EOF
g("shards.missing") == [1] and [s["stop_reason"] for s in g("shards.held")] == ["duration", "interrupted"]
EOF
done_requests=$(json_eval "$OUT" 'g("requests.total")')
abandoned=$(json_eval "$OUT" 'g("requests.abandoned")')
# Any status from host 2: nginx logs a request whose client went away as 499.
seen=$(($(in_lines "${HOST_ADDR[0]} 200 \"GET /delay/50?run=job") +
  $(grep -F "${HOST_ADDR[2]} " "$ACCESS_LOG" | grep -cF "/delay/50?run=job")))
# Requests abandoned at SIGTERM may or may not have reached nginx; none is lost either way.
assert_le "$done_requests" "$seen" "requests the held shards counted against nginx's"
assert_le "$seen" "$((done_requests + abandoned))" "nginx's against the requests the held shards started"
run_stampede incomplete_text report "$TEST_TMP"/job{0,2}.stampede --threshold 'p99<5s'
expect_rc 5
grep -q "^Shards: *2 of 3 (run [0-9a-f]*); MISSING 2; INTERRUPTED 3;" "$OUT" || fail "the text report does not name them: $(grep Shards "$OUT")"

# --- Ctrl-C while a shard waits for --start-at: it ends at once, its report says so.
interrupt_run waiting 1 -c 2 -n 5 -u "$URL?run=waiting" --shard 1/2 --start-at "$(date -u -d '+30 seconds' +%Y-%m-%dT%H:%M:%SZ)"
expect_rc 0
assert_le "${ELAPSED%.*}" 5 "seconds from the SIGINT to the end"
grep -q "^-- waiting [0-9.]* s for --start-at --" "$OUT" || fail "no word of the wait: $(head -3 "$OUT")"
grep -q "^Stopped early: *interrupted" "$OUT" || fail "the report does not say interrupted: $(grep -m1 Stopped "$OUT")"
assert_eq 0 "$(in_lines 'run=waiting')" "requests sent before the start"

# --- --shards outside an Indexed Job.
run_stampede no_index -c 2 -n 1 -u "$URL" --shards 3
expect_rc 2
grep -q "JOB_COMPLETION_INDEX" "$ERR" || fail "no word of JOB_COMPLETION_INDEX: $(cat "$ERR")"

pass
