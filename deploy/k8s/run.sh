#!/usr/bin/env bash
# One sharded run on Kubernetes: sets start.env (a shared --start-at and run id), replaces the
# Job, waits for its pods, collects each pod's saved run from its log and merges them with
# `stampede report` (its flags after ours), whose exit status this ends with.
#   deploy/k8s/run.sh [--lead 60s] [--dir DIR] [--timeout 1h] [stampede report's flags...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lead=60 dir="" timeout=3600
while (($#)); do
  case $1 in
    --lead) lead=${2%s} && shift 2 ;;
    --dir) dir=$2 && shift 2 ;;
    --timeout) timeout=${2%s} && shift 2 ;;
    *) break ;;
  esac
done
for tool in kubectl stampede base64; do
  command -v "$tool" >/dev/null || { echo "run.sh: '$tool' is not installed" >&2; exit 1; }
done

# N, the same in completions, parallelism and SHARDS (validate.mjs checks it in CI).
field() { awk -v key="$1" '$1 == key ":" { gsub(/"/, "", $2); print $2; exit }' "$here/job.yaml"; }
shards=$(field completions)
parallel=$(field parallelism)
env_shards=$(awk '/name: SHARDS/ { getline; gsub(/"/, "", $2); print $2; exit }' "$here/job.yaml")
if ! [[ $shards == "$parallel" && $shards == "$env_shards" ]]; then
  echo "run.sh: job.yaml's completions ($shards), parallelism ($parallel) and SHARDS ($env_shards) differ" >&2
  exit 2
fi

run=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
start_at=$(date -u -d "+$lead seconds" +%Y-%m-%dT%H:%M:%SZ)
printf 'START_AT=%s\nRUN_ID=%s\n' "$start_at" "$run" >"$here/start.env"
dir=${dir:-stampede-k8s-$run}
mkdir -p "$dir"
echo "run.sh: run $run: $shards shards starting at $start_at; their runs go to $dir/" >&2
kubectl delete job stampede --ignore-not-found --wait=true >&2
kubectl apply -k "$here" >&2

# Until every pod succeeded or failed (backoffLimit 0: a failed one is not run again).
deadline=$((SECONDS + lead + timeout))
while ((SECONDS < deadline)); do
  read -r ok failed < <(kubectl get job stampede -o jsonpath='{.status.succeeded} {.status.failed}' | awk '{print $1+0, $2+0}')
  ((ok + failed >= shards)) && break
  sleep 5
done
((ok + failed >= shards)) || echo "run.sh: the Job did not end within --timeout: collecting what ended" >&2

# Each pod's log holds its saved run on one line; a pod without one is a missing shard.
kubectl get pods -l job-name=stampede \
  -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.annotations.batch\.kubernetes\.io/job-completion-index}{"\n"}{end}' |
  while read -r pod index; do
    kubectl logs "$pod" | sed -n 's/^stampede-run: //p' | base64 -d >"$dir/shard-$index.stampede" ||
      echo "run.sh: pod $pod (shard $index) left no saved run" >&2
  done
exec stampede report "$dir"/shard-*.stampede "$@"
