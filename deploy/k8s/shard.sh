#!/bin/sh
# One shard: the load of args.txt with this pod's --shards, its saved run printed as one log line
# (stampede-run: BASE64) for run.sh to collect with `kubectl logs`; the report goes to stderr.
set -u
set --
while IFS= read -r word || [ -n "$word" ]; do
  case $word in '' | '#'*) ;; *) set -- "$@" "$word" ;; esac
done <"${STAMPEDE_LOAD:-/etc/stampede}/args.txt"
[ -n "${START_AT:-}" ] && set -- "$@" --start-at "$START_AT"
[ -n "${RUN_ID:-}" ] && set -- "$@" --run-id "$RUN_ID"
run="${TMPDIR:-/tmp}/run.stampede"
stampede "$@" --shards "$SHARDS" --save "$run" >&2
status=$?
[ -s "$run" ] && echo "stampede-run: $(base64 -w 0 "$run")"
exit $status
