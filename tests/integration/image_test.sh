#!/usr/bin/env bash
# The container image (deploy/build-image.sh: nothing pulled) runs a load, and the Indexed Job's
# pod template runs as deploy/k8s has it: three pods by `podman kube play`, each a shard with its
# JOB_COMPLETION_INDEX and the ConfigMaps' load and start, their logs collected as run.sh does
# and merged into exactly what nginx logged.
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
cp "$HERE/k8s/package.json" "$HERE/k8s/package-lock.json" "$HERE/k8s/render.mjs" "$HERE/k8s/pods.mjs" "$K8S/"
(cd "$K8S" && timeout 300 npm ci --no-audit --no-fund --silent) || fail "npm ci of the YAML reader failed"
printf '%s\n' -c 7 -n 30 -k -cpuNumber 1 -u "$HTTP_URL/?run=pods" >"$K8S/args.txt"
START_AT=$(date -u -d '+8 seconds' +%Y-%m-%dT%H:%M:%S.%3NZ)
node "$K8S/pods.mjs" "$DEPLOY/k8s" "$K8S" "$TAG" 3 "$START_AT" "$RUN" "$K8S/args.txt"
for i in 0 1 2; do
  timeout 60 podman kube play --configmap "$K8S/stampede-load.yaml" --configmap "$K8S/stampede-start.yaml" \
    "$K8S/pod-$i.yaml" >"$TEST_TMP/play$i.out" 2>&1 || fail "kube play of pod $i: $(tail -n 3 "$TEST_TMP/play$i.out")"
done
for i in 0 1 2; do
  status=$(timeout 60 podman wait "$RUN-$i-stampede") || fail "pod $i did not end"
  podman logs "$RUN-$i-stampede" >"$TEST_TMP/pod$i.log" 2>&1
  assert_eq 0 "$status" "pod $i's exit status ($(tail -n 3 "$TEST_TMP/pod$i.log"))"
  sed -n 's/^stampede-run: //p' "$TEST_TMP/pod$i.log" | base64 -d >"$TEST_TMP/shard-$i.stampede"
done
run_stampede merged report "$TEST_TMP"/shard-*.stampede --output json
expect_rc 0
assert_eq 210 "$(count_requests "$ACCESS_LOG" 'GET /?run=pods ')" "requests nginx saw from the pods"
json_check "$OUT" <<EOF
g("requests.total") == 210 and g("users") == 7 and g("shards.run") == "$RUN"
g("shards.missing") == [] and all(0 <= s["skew_ms"] < 100 for s in g("shards.held"))
EOF
pass
