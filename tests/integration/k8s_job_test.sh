#!/usr/bin/env bash
# deploy/k8s checked offline against Kubernetes' schemas and the shards' rules (a changed N, or a
# field of the wrong type, is refused), then its pods' script run as the Indexed Job runs it:
# three "pods" (network namespaces) with JOB_COMPLETION_INDEX, SHARDS and start.env's values,
# their logs decoded as run.sh does and merged into exactly what nginx logged.
source "$(dirname "$0")/lib.sh" "$@"
source "$(dirname "$0")/netns.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
DEPLOY=$(cd "$HERE/../../deploy/k8s" && pwd)
command -v node >/dev/null || fail "'node' is not installed (scripts/install-deps.sh --test)"
CHECK=$TEST_TMP/k8s
mkdir -p "$CHECK"
cp "$HERE/k8s/render.mjs" "$HERE/k8s/validate.mjs" "$CHECK/"
ln -s "$(npm_modules "$HERE/k8s")" "$CHECK/node_modules"

# --- The manifests as they are, then broken twice: each break is named.
node "$CHECK/validate.mjs" "$DEPLOY" >&2 || fail "deploy/k8s does not validate"
cp -r "$DEPLOY" "$TEST_TMP/seven"
sed -i 's/^  completions: 8/  completions: 7/' "$TEST_TMP/seven/job.yaml"
if node "$CHECK/validate.mjs" "$TEST_TMP/seven" 2>"$TEST_TMP/seven.err"; then fail "7 completions for 8 shards validated"; fi
grep -q "completions (7), parallelism (8) and SHARDS (8) must be one N" "$TEST_TMP/seven.err" || fail "no reason: $(cat "$TEST_TMP/seven.err")"
cp -r "$DEPLOY" "$TEST_TMP/typed"
sed -i 's/^  backoffLimit: 0 /  backoffLimit: none /' "$TEST_TMP/typed/job.yaml"
if node "$CHECK/validate.mjs" "$TEST_TMP/typed" 2>"$TEST_TMP/typed.err"; then fail "a backoffLimit of 'none' validated"; fi
grep -q "backoffLimit must be integer" "$TEST_TMP/typed.err" || fail "no schema error: $(cat "$TEST_TMP/typed.err")"

# --- Three pods, as the Job starts them: shard.sh with the ConfigMaps' files and values.
netns_lab 3
start_lab_target
LOAD=$TEST_TMP/load
mkdir -p "$LOAD"
printf '%s\n' '# as in deploy/k8s/args.txt' -c 7 -n 30 -k -cpuNumber 1 -u "$LAB_URL/delay/20?run=job" >"$LOAD/args.txt"
# The pods start half a second apart, as a Job's may: waiting for START_AT, they start together
# all the same (a spread under 500 ms, where starting at once would spread them over a second).
# How much under is the machine's: 100 ms once, woken beside a build and two tests (ctest -j).
START_AT=$(date -u -d '+4 seconds' +%Y-%m-%dT%H:%M:%S.%3NZ)
PODS=()
for i in 0 1 2; do
  ((i == 0)) || sleep 0.5
  mkdir -p "$TEST_TMP/pod$i"  # each pod's own /tmp
  ip netns exec "${HOST_NS[i]}" env -i PATH="$(dirname "$STAMPEDE"):/usr/bin:/bin" JOB_COMPLETION_INDEX=$i \
    SHARDS=3 START_AT="$START_AT" RUN_ID=lab-run STAMPEDE_LOAD="$LOAD" TMPDIR="$TEST_TMP/pod$i" \
    timeout -k 5 60 sh "$DEPLOY/shard.sh" >"$TEST_TMP/pod$i.log" 2>&1 &
  PODS+=("$!")
  _PIDS+=("$!")
done
for i in 0 1 2; do
  wait "${PODS[i]}" || fail "pod $i ended with $?: $(tail -n 5 "$TEST_TMP/pod$i.log")"
  grep -q "^Shards: *shard $((i + 1)) of 3 (run lab-run)" "$TEST_TMP/pod$i.log" || fail "pod $i's log has not its report"
  grep -q "^-- waiting [0-9.]* s for --start-at --" "$TEST_TMP/pod$i.log" || fail "pod $i did not wait for START_AT"
  # As run.sh collects it from `kubectl logs`.
  sed -n 's/^stampede-run: //p' "$TEST_TMP/pod$i.log" | base64 -d >"$TEST_TMP/shard-$i.stampede"
done
run_stampede merged report "$TEST_TMP"/shard-*.stampede --output json
expect_rc 0
assert_eq 210 "$(count_requests "$ACCESS_LOG" 'run=job')" "requests nginx saw"
# 7 users over 3 shards: 3, 2, 2.
assert_eq 90 "$(count_requests "$ACCESS_LOG" "${HOST_ADDR[0]} 200 \"GET /delay/20?run=job")" "requests from pod 0"
json_check "$OUT" <<EOF
g("requests.total") == 210 and g("status_codes") == {"200": 210} and g("users") == 7
g("shards.run") == "lab-run" and g("shards.missing") == []
all(0 <= s["skew_ms"] < 1000 for s in g("shards.held")) ## woken from the wait on a busy machine (ctest -j)
g("shards.start_spread_ms") < 500 ## but together, though started 1 s apart
EOF
pass
