#!/usr/bin/env bash
# The container image (deploy/build-image.sh: nothing pulled) runs a load, and the Indexed Job's
# pod template runs as deploy/k8s has it: three pods by `podman kube play`, each a shard with its
# JOB_COMPLETION_INDEX and the ConfigMaps' load and start, their logs collected as run.sh does
# and merged into exactly what nginx logged; then run.sh itself, against a kubectl stand-in that
# plays the Job's pods the same way.
source "$(dirname "$0")/lib.sh" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
DEPLOY=$(cd "$HERE/../../deploy" && pwd)
for tool in podman runc node; do
  command -v "$tool" >/dev/null || fail "'$tool' is not installed (scripts/install-deps.sh --test)"
done
# This machine's limits: runc (crun refuses its cgroups), cgroupfs, and no rlimit above the
# hard ones (podman's defaults are).
export CONTAINERS_CONF=$TEST_TMP/containers.conf
cat >"$CONTAINERS_CONF" <<EOF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
TAG=localhost/stampede:test-$$
RUN=pods-$$
_AT_EXIT+=("podman pod rm -f $RUN-0 $RUN-1 $RUN-2 >/dev/null 2>&1" "podman rmi -f $TAG >/dev/null 2>&1")
bash "$DEPLOY/build-image.sh" "$STAMPEDE" "$TAG" >&2 || fail "the image did not build"
start_nginx "$TEST_TMP/nginx"

# --- The image alone: a load from inside it.
set +e
timeout -k 5 60 podman run --rm --network host "$TAG" -c 4 -n 25 -k -u "$HTTP_URL/?run=image" --output json >"$TEST_TMP/image.out" 2>"$TEST_TMP/image.err"
RC=$?
set -e
_LAST_RUN=image ERR=$TEST_TMP/image.err expect_rc 0
json_assert "$TEST_TMP/image.out" 'g("requests.succeeded") == 100' "the image's run"
assert_eq 100 "$(count_requests "$ACCESS_LOG" 'GET /?run=image ')" "requests nginx saw from the image"

# --- The Job's pods, three shards from one START_AT.
K8S=$TEST_TMP/k8s
mkdir -p "$K8S"
cp "$HERE/k8s/render.mjs" "$HERE/k8s/pods.mjs" "$K8S/"
ln -s "$(npm_modules "$HERE/k8s")" "$K8S/node_modules"
printf '%s\n' -c 7 -n 30 -k -cpuNumber 1 -u "$HTTP_URL/?run=pods" >"$K8S/args.txt"
# podman builds its pause image at a machine's first pod (18 s once here): before START_AT is set.
t0=$SECONDS
podman pod create --name "$RUN-warm" >/dev/null && podman pod rm -f "$RUN-warm" >/dev/null
log "a first pod: $((SECONDS - t0)) s"
# The lead: the three `podman kube play`s, 1-3 s each here, and 12 s for the three once, as
# CI's first test beside the sanitized build and Chromium (the last pod then started 2 s after a
# lead of 10 s). A pod that starts late shows its lateness as its skew. The pods wait for
# START_AT and start together: their spread is under 500 ms, where the plays seconds apart would
# spread pods that did not wait over seconds (a pod woke 100 ms after the others once, beside a
# build and two tests). How late they all wake from that wait is the machine's: 120 ms once with
# Chromium and a WebSocket load test beside (ctest -j), so the skew's bound is a second, short of
# the lead. (Played at once, the plays ended within the lead, but their burst beside the
# dashboard test's Chromium slowed it.)
START_AT=$(date -u -d '+20 seconds' +%Y-%m-%dT%H:%M:%S.%3NZ)
node "$K8S/pods.mjs" "$DEPLOY/k8s" "$K8S" "$TAG" 3 "$START_AT" "$RUN" "$K8S/args.txt" >/dev/null
for i in 0 1 2; do
  timeout -k 5 60 podman kube play --configmap "$K8S/stampede-load.yaml" --configmap "$K8S/stampede-start.yaml" \
    "$K8S/pod-$i.yaml" >"$TEST_TMP/play$i.out" 2>&1 || fail "kube play of pod $i: $(tail -n 3 "$TEST_TMP/play$i.out")"
done
log "pods played $(($(date +%s) - $(date -d "$START_AT" +%s))) s from START_AT"
for i in 0 1 2; do
  status=$(timeout -k 5 60 podman wait "$RUN-$i-stampede") || fail "pod $i did not end"
  podman logs "$RUN-$i-stampede" >"$TEST_TMP/pod$i.log" 2>&1
  assert_eq 0 "$status" "pod $i's exit status ($(tail -n 3 "$TEST_TMP/pod$i.log"))"
  sed -n 's/^stampede-run: //p' "$TEST_TMP/pod$i.log" | base64 -d >"$TEST_TMP/shard-$i.stampede"
done
run_stampede merged report "$TEST_TMP"/shard-*.stampede --output json
expect_rc 0
assert_eq 210 "$(count_requests "$ACCESS_LOG" 'GET /?run=pods ')" "requests nginx saw from the pods"
json_check "$OUT" <<EOF
g("requests.total") == 210 and g("users") == 7 and g("shards.run") == "$RUN"
g("shards.missing") == [] and all(0 <= s["skew_ms"] < 1000 for s in g("shards.held"))
g("shards.start_spread_ms") < 500
EOF
# --- run.sh as a user runs it, against a kubectl stand-in that plays the Job's pods with podman
# (tests/integration/k8s/kubectl): N checked, start.env written, the pods' logs collected.
cp -r "$DEPLOY/k8s" "$TEST_TMP/deploy"
printf '%s\n' -c 5 -n 20 -k -cpuNumber 1 -u "$HTTP_URL/?run=runsh" >"$TEST_TMP/deploy/args.txt"
sed -i -e 's/^  completions: 8/  completions: 3/' -e 's/^  parallelism: 8/  parallelism: 3/' \
  -e 's/^              value: "8"/              value: "3"/' "$TEST_TMP/deploy/job.yaml"
mkdir -p "$TEST_TMP/fake"
cp "$HERE/k8s/kubectl" "$TEST_TMP/fake/"
_AT_EXIT+=("PATH=$TEST_TMP/fake:\$PATH FAKE_K8S=$TEST_TMP/fake kubectl delete job stampede --ignore-not-found --wait=true >/dev/null 2>&1")
set +e
PATH=$TEST_TMP/fake:$(dirname "$STAMPEDE"):$PATH FAKE_K8S=$TEST_TMP/fake FAKE_K8S_TOOLS=$K8S FAKE_K8S_IMAGE=$TAG \
  timeout -k 5 120 bash "$TEST_TMP/deploy/run.sh" --lead 20 --timeout 60 --dir "$TEST_TMP/runsh" --output json \
  >"$TEST_TMP/runsh.out" 2>"$TEST_TMP/runsh.err"
RC=$?
set -e
_LAST_RUN=runsh OUT=$TEST_TMP/runsh.out ERR=$TEST_TMP/runsh.err
log "runsh: deploy/k8s/run.sh -> exit $RC"
expect_rc 0
grep -q "^START_AT=20[0-9-]*T[0-9:]*Z$" "$TEST_TMP/deploy/start.env" || fail "run.sh wrote no START_AT: $(cat "$TEST_TMP/deploy/start.env")"
assert_eq 100 "$(count_requests "$ACCESS_LOG" 'GET /?run=runsh ')" "requests nginx saw from run.sh's pods"
json_check "$OUT" <<EOF
g("requests.total") == 100 and g("users") == 5 and g("shards.count") == 3 and g("shards.missing") == []
all(0 <= s["skew_ms"] < 1000 for s in g("shards.held")) and g("shards.start_spread_ms") < 500
EOF
# A Job whose N disagrees is refused before anything is applied.
sed -i 's/^  parallelism: 3/  parallelism: 2/' "$TEST_TMP/deploy/job.yaml"
set +e
PATH=$TEST_TMP/fake:$(dirname "$STAMPEDE"):$PATH FAKE_K8S=$TEST_TMP/fake bash "$TEST_TMP/deploy/run.sh" >"$OUT" 2>"$ERR"
RC=$?
set -e
expect_rc 2
grep -q "completions (3), parallelism (2) and SHARDS (3) differ" "$ERR" || fail "no reason: $(cat "$ERR")"
pass
