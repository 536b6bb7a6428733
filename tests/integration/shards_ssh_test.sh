#!/usr/bin/env bash
# `stampede shards` over ssh: three "hosts" (network namespaces with sshd) run one load's shards
# from a shared --start-at; their runs come back and merge into the counts nginx logged, judged
# once; a host whose sshd is gone, or hangs, is named and the verdict says the run is incomplete.
source "$(dirname "$0")/lib.sh" "$@"
source "$(dirname "$0")/netns.sh"

netns_lab 3
start_lab_target
start_lab_sshd
URL=$LAB_URL/delay/20
HOSTS=$(IFS=,; echo "${HOST_ADDR[*]}")

# coordinate NAME ARGS...: `stampede shards ARGS` from the target's namespace (which reaches every
# host), bounded; sets RC, OUT, ERR. The lead is LEAD (2s): time for the ssh sessions to come up.
coordinate() {
  local name=$1
  shift
  _LAST_RUN=$name
  OUT=$TEST_TMP/$name.out
  ERR=$TEST_TMP/$name.err
  set +e
  ip netns exec "$TARGET_NS" timeout -k 5 90 "$STAMPEDE" shards --ssh "ssh -F $SSH_CONFIG" \
    --stampede "$STAMPEDE" --lead "${LEAD:-2s}" --dir "$TEST_TMP/$name" "$@" >"$OUT" 2>"$ERR"
  RC=$?
  set -e
  log "$name: stampede shards $* -> exit $RC"
}

# --- Every host runs its shard; the merged report is the whole load's. A lead of 5 s: on a busy
# machine (CI runs two tests at once) three ssh logins took more than 2 s, and a late shard's skew
# is its lateness.
LEAD=5s coordinate whole --hosts "$HOSTS" --output json -- -c 31 -n 20 -k -cpuNumber 1 -u "$URL?run=whole"
expect_rc 0
assert_eq 620 "$(count_requests "$ACCESS_LOG" 'run=whole')" "requests nginx saw"
# 31 users over 3 shards: 11, 10, 10.
assert_eq 220 "$(count_requests "$ACCESS_LOG" "${HOST_ADDR[0]} 200 \"GET /delay/20?run=whole")" "requests from host 0"
assert_eq 200 "$(count_requests "$ACCESS_LOG" "${HOST_ADDR[2]} 200 \"GET /delay/20?run=whole")" "requests from host 2"
json_check "$OUT" <<EOF
g("requests.total") == 620 and g("status_codes") == {"200": 620} and g("users") == 31
g("shards.missing") == [] and [s["index"] for s in g("shards.held")] == [0, 1, 2]
all(0 <= s["skew_ms"] < 100 for s in g("shards.held")) and g("shards.start_spread_ms") < 100
all(0 <= s["clock_offset_ms"] < 2000 for s in g("shards.held"))
EOF
[[ -s $TEST_TMP/whole/shard-1.stampede ]] || fail "the shards' runs are not kept in --dir"
grep -q "^stampede: run [0-9a-f]\{12\}: 3 shards starting at " "$ERR" || fail "no word of the run: $(cat "$ERR")"

# --- One verdict: a threshold judged on the merged run.
coordinate judged --hosts "$HOSTS" --threshold 'p50<1ms' -- -c 3 -n 5 -k -u "$URL?run=judged"
expect_rc 3
grep -q "^Shards: *3 of 3 (run " "$OUT" || fail "no Shards line: $(head -c 1500 "$OUT")"

# --- Ctrl-C (here SIGTERM) on the coordinator: every shard is stopped on its host, and their
# runs, interrupted, come back and merge; the run is incomplete (exit 5). The hosts here share
# one machine, so each pkill must find its own shard alone: a second SIGINT kills a run at once.
ip netns exec "$TARGET_NS" timeout -k 5 90 "$STAMPEDE" shards --ssh "ssh -F $SSH_CONFIG" \
  --stampede "$STAMPEDE" --lead 3s --dir "$TEST_TMP/stopped" --output json --hosts "$HOSTS" \
  -- -c 3 -z 60s -k -u "$URL?run=stopped" >"$TEST_TMP/stopped.out" 2>"$TEST_TMP/stopped.err" &
COORDINATOR=$!
_PIDS+=("$COORDINATOR")
# Once every shard has sent a request: it runs, and catches SIGINT.
for i in 0 1 2; do
  until_lines "$ACCESS_LOG" "^${HOST_ADDR[i]//./\\.} .*run=stopped" 1 30 || fail "shard $i sent no request"
done
t0=$SECONDS
kill -TERM "$(pgrep -P "$COORDINATOR")"
set +e
wait "$COORDINATOR"
RC=$?
set -e
_LAST_RUN=stopped OUT=$TEST_TMP/stopped.out ERR=$TEST_TMP/stopped.err
log "stopped: exit $RC, $((SECONDS - t0)) s after the SIGTERM"
expect_rc 5
assert_le "$((SECONDS - t0))" 15 "seconds from the SIGTERM to the report"
grep -q "stopping the shards" "$ERR" || fail "no word of stopping: $(cat "$ERR")"
for i in 1 2 3; do
  grep -q "shard $i of 3 (run [0-9a-f]*) was interrupted" "$ERR" || fail "shard $i is not named interrupted: $(cat "$ERR")"
done
done_requests=$(json_eval "$OUT" 'g("requests.total")')
abandoned=$(json_eval "$OUT" 'g("requests.abandoned")')
seen=$(count_requests "$ACCESS_LOG" 'run=stopped')
assert_le "$done_requests" "$seen" "requests the stopped shards counted against nginx's"
assert_le "$seen" "$((done_requests + abandoned))" "nginx's against the requests the shards started"
assert_le 1 "$done_requests" "requests done before the stop"

# --- A host whose sshd is gone fails to start its shard: named, and the run is incomplete.
kill -STOP "${SSHD_PID[1]}"  # the next host hangs: its ssh never gets a banner
_stop_pid "${SSHD_PID[2]}"
coordinate broken --hosts "$HOSTS" --wait 4s -- -c 3 -z 1s -k -u "$URL?run=broken"
kill -CONT "${SSHD_PID[1]}"
expect_rc 5
grep -q "host ${HOST_ADDR[2]} (shard 3) failed (exit 255): .*onnection refused" "$ERR" || fail "the failed host is not named: $(cat "$ERR")"
grep -q "host ${HOST_ADDR[1]} (shard 2) did not end within --wait: stopped" "$ERR" || fail "the hung host is not named: $(cat "$ERR")"
grep -q "shard 2 of 3 (run [0-9a-f]*) is missing" "$ERR" || fail "shard 2 is not reported missing: $(cat "$ERR")"
grep -q "^Shards: *shard 1 of 3 " "$OUT" || fail "the report is not shard 1's: $(grep Shards "$OUT")"
assert_eq "$(text_field "$OUT" 'Complete requests')" "$(count_requests "$ACCESS_LOG" "${HOST_ADDR[0]} 200 \"GET /delay/20?run=broken")" "shard 0's requests against nginx's"
assert_eq 0 "$(count_requests "$ACCESS_LOG" "${HOST_ADDR[2]} 200 \"GET /delay/20?run=broken")" "requests from the host that failed"

# --- Refused before any host is reached.
coordinate no_load --hosts "$HOSTS"
expect_rc 2
coordinate own_save --hosts "$HOSTS" -- -c 3 -n 1 -u "$URL" --save x.stampede
expect_rc 2
grep -q "sets --shard, --start-at, --told-at, --run-id and --save itself" "$ERR" || fail "no reason: $(cat "$ERR")"

pass
