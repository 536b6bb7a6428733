#!/usr/bin/env bash
# Bad command lines exit 2 with one line on stderr and send nothing.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

# usage_error NAME ARGS...: the run must exit 2, print exactly one line on stderr, reach no server.
usage_error() {
  local name=$1 lines
  shift
  STAMPEDE_LIMIT=15 run_stampede "$name" "$@"
  expect_rc 2
  lines=$(grep -c '' "$ERR" || true)
  ((lines == 1)) || fail "$name: expected exactly one line on stderr, got $lines:
$(head -c 2000 "$ERR")"
  log "$name: $(cat "$ERR")"
}

usage_error unknown_flag -c 1 -n 1 -u "$HTTP_URL/?run=unknown_flag" --no-such-flag
usage_error empty_host -c 1 -n 1 -u 'http://'
usage_error ftp_scheme -c 1 -n 1 -u 'ftp://x'
usage_error zero_users -c 0 -n 1 -u "$HTTP_URL/?run=zero_users"
usage_error missing_body_file -c 1 -n 1 -u "$HTTP_URL/?run=missing_body_file" -data @/nonexistent
usage_error directory_body_file -c 1 -n 1 -u "$HTTP_URL/?run=directory_body_file" -data @/tmp
# Out of range, checked before anything is set up (-c 4294967297 once died of bad_alloc).
usage_error huge_users -c 4294967297 -n 1 -u "$HTTP_URL/?run=huge_users"
usage_error status_code_range -c 1 -n 1 -code 99999 -u "$HTTP_URL/?run=status_code_range"
usage_error tiny_request_timeout -c 1 -n 1 -t 0.001 -u "$HTTP_URL/?run=tiny_request_timeout"
usage_error zero_duration -c 1 -z 0 -u "$HTTP_URL/?run=zero_duration"
usage_error duration_and_count -c 1 -z 1s -n 5 -u "$HTTP_URL/?run=duration_and_count"
usage_error duration_past_hard_stop -c 1 -z 10s -timeout 5 -u "$HTTP_URL/?run=duration_past_hard_stop"
usage_error negative_rate --rate -1 -z 1s -u "$HTTP_URL/?run=negative_rate"
usage_error rate_without_end --rate 10 -u "$HTTP_URL/?run=rate_without_end"
usage_error rate_and_think --rate 10 -z 1s --think 1s -u "$HTTP_URL/?run=rate_and_think"
usage_error stages_and_users --stages 10s:5 -c 5 -u "$HTTP_URL/?run=stages_and_users"
usage_error stages_without_users --stages 10s:0 -u "$HTTP_URL/?run=stages_without_users"
usage_error stages_mixed_units --stages 10s:5,5s:10/s -u "$HTTP_URL/?run=stages_mixed_units"
usage_error stages_with_rate --stages 10s:5/s --rate 5 -u "$HTTP_URL/?run=stages_with_rate"
# --shard and --start-at: malformed, out of range, or a slice with nothing in it.
usage_error shard_past_count -c 8 -n 1 --shard 9/8 -u "$HTTP_URL/?run=shard_past_count"
usage_error shard_zero -c 8 -n 1 --shard 0/8 -u "$HTTP_URL/?run=shard_zero"
grep -qF -- "--shard counts from 1, as Playwright's and Jest's do: the first of 8 shards is --shard 1/8" "$ERR" ||
  fail "--shard 0/8 is not refused as counting from 1: $(cat "$ERR")"
usage_error shard_no_count -c 8 -n 1 --shard 3 -u "$HTTP_URL/?run=shard_no_count"
usage_error shard_too_few_users -c 3 -n 1 --shard 1/8 -u "$HTTP_URL/?run=shard_too_few_users"
usage_error shard_and_shards -c 8 -n 1 --shard 1/8 --shards 8 -u "$HTTP_URL/?run=shard_and_shards"
usage_error shard_sweep --sweep 1,2 --shard 1/2 -u "$HTTP_URL/?run=shard_sweep"
usage_error start_at_local -c 1 -n 1 --start-at 2026-12-01T10:00:00 -u "$HTTP_URL/?run=start_at_local"
usage_error start_at_far -c 1 -n 1 --start-at 2099-01-01T00:00:00Z -u "$HTTP_URL/?run=start_at_far"
usage_error start_at_years_ago -c 1 -n 1 --start-at 2020-01-01T00:00:00Z -u "$HTTP_URL/?run=start_at_years_ago"
grep -qF 'more than a day ago' "$ERR" || fail "start_at_years_ago: $(cat "$ERR")"
usage_error run_id_alone -c 1 -n 1 --run-id nightly -u "$HTTP_URL/?run=run_id_alone"
usage_error run_id_bad -c 2 -n 1 --shard 1/2 --run-id 'a b' -u "$HTTP_URL/?run=run_id_bad"
usage_error told_at_alone -c 1 -n 1 --told-at 2026-12-01T10:00:00Z -u "$HTTP_URL/?run=told_at_alone"
usage_error told_at_bad -c 2 -n 1 --shard 1/2 --told-at now -u "$HTTP_URL/?run=told_at_bad"
# A sweep's levels and bounds, and what it cannot go with; the last -u is checked before the first
# is sent anything.
usage_error sweep_with_count --sweep 1,2 -n 5 -u "$HTTP_URL/?run=sweep_with_count"
usage_error sweep_with_users --sweep auto -c 5 -u "$HTTP_URL/?run=sweep_with_users"
usage_error sweep_falling --sweep 4,2 -u "$HTTP_URL/?run=sweep_falling"
usage_error sweep_bad_slo --sweep 1,2 --slo 'p98<1s' -u "$HTTP_URL/?run=sweep_bad_slo"
usage_error slo_without_sweep -c 1 -n 1 --slo 'p99<1s' -u "$HTTP_URL/?run=slo_without_sweep"
usage_error two_urls_without_sweep -c 1 -n 1 -u "$HTTP_URL/?run=two_urls" -u "$HTTP_URL/?run=two_urls"
usage_error sweep_bad_second_url --sweep 1 -z 1s -u "$HTTP_URL/?run=sweep_bad_second_url" -u 'ftp://x'
usage_error sweep_rate_step_too_short --sweep-rate 0.5,1 -z 200ms -u "$HTTP_URL/?run=sweep_rate_step_too_short"
grep -qxF "stampede: --sweep-rate: a step of 0.2 s at 0.5 requests/s sends 0.1, too few to judge (a step needs 10): make -z at least 20s, or the lowest rate higher" "$ERR" ||
  fail "sweep_rate_step_too_short: $(cat "$ERR")"
usage_error page_views_negative -c 1 -n 1 --pv -5 -u "$HTTP_URL/?run=page_views_negative"
usage_error serve_negative_max_in_flight serve --port 0 --max-in-flight -1
# What would be sent as something else than typed.
usage_error method_two_words -c 1 -n 1 -X 'GET X' -u "$HTTP_URL/?run=method_two_words"
usage_error empty_method -c 1 -n 1 -X '' -u "$HTTP_URL/?run=empty_method"
usage_error header_injection -c 1 -n 1 -H $'X: a\r\nInjected: 1' -u "$HTTP_URL/?run=header_injection"
usage_error header_name_space -c 1 -n 1 -H 'X Y: 1' -u "$HTTP_URL/?run=header_name_space"
usage_error header_no_colon -c 1 -n 1 -H 'no-colon' -u "$HTTP_URL/?run=header_no_colon"
usage_error empty_host_header -c 1 -n 1 -H 'Host:' -u "$HTTP_URL/?run=empty_host_header"
# CR/LF through any option of a curl file, not only -H, and through ${env:...} (issue 38).
cat >"$TEST_TMP/agent.curl" <<EOF
curl -A \$'ua\\r\\nX-Inj: 2' $HTTP_URL/?run=curl_agent_injection
EOF
usage_error curl_agent_injection -c 1 -n 1 -p "$TEST_TMP/agent.curl"
cat >"$TEST_TMP/target.curl" <<EOF
curl --request-target \$'/x\\r\\nZ: 1' $HTTP_URL/?run=curl_target_split
EOF
usage_error curl_target_split -c 1 -n 1 -p "$TEST_TMP/target.curl"
# A header longer than stampede sends (Beast's 16-bit offsets) names its file and line.
{
  echo "curl '$HTTP_URL/?run=curl_big_header' \\"
  printf "  -H 'X-Big: %s'\n" "$(head -c 1048576 /dev/zero | tr '\0' a)"
} >"$TEST_TMP/big.curl"
usage_error curl_big_header -c 1 -n 1 -p "$TEST_TMP/big.curl"
grep -qF "big.curl:2:6: header 'X-Big' is 1048576 bytes long; stampede sends a header of at most 65533 bytes" "$ERR" ||
  fail "curl_big_header: $(cut -c 1-300 "$ERR")"
usage_error big_header -c 1 -n 1 -H "X-Big: $(head -c 70000 /dev/zero | tr '\0' a)" -u "$HTTP_URL/?run=big_header"
EVIL=$'v\r\nX-Inj: 2' usage_error env_header_injection -c 1 -n 1 -H 'X-A: ${env:EVIL}' \
  -u "$HTTP_URL/?run=env_header_injection"
# An empty value is a mistake (an unset variable), not the flag left out: `-z ""` ran one request.
for flag in -z --stages --think --ramp --data-file --source-ips --sweep-rate --save; do
  usage_error "empty_${flag##*-}" -c 1 "$flag" '' -u "$HTTP_URL/?run=empty_value"
  grep -qxF "stampede: $flag is empty (give it a value, or leave the flag out)" "$ERR" ||
    fail "empty $flag: $(cat "$ERR")"
done
usage_error port_with_letters -c 1 -n 1 -u "http://127.0.0.1:${HTTP_PORT}abc/?run=port_with_letters"
# A run this machine cannot hold is refused before it starts: more users than local ports to
# one server, more sockets than open files.
read -r port_low port_high </proc/sys/net/ipv4/ip_local_port_range
ports=$((port_high - port_low + 1))
if ((ports < 65535)); then
  usage_error users_beyond_ports -c $((ports + 1)) -n 1 -k -u "$HTTP_URL/?run=users_beyond_ports"
fi
printf '#!/usr/bin/env bash\nulimit -n 256 && exec "%s" "$@"\n' "$STAMPEDE" >"$TEST_TMP/ulimit_256.sh"
chmod +x "$TEST_TMP/ulimit_256.sh"
STAMPEDE=$TEST_TMP/ulimit_256.sh usage_error users_beyond_open_files -c 300 -n 1 -k \
  -u "$HTTP_URL/?run=users_beyond_open_files"
grep -q 'at most 256 can be open' "$ERR" || fail "users_beyond_open_files: the limit is not named"
# `stampede serve` checks its counts and words before it listens (--threads -1 was read as
# 4,294,967,295 threads; a stray word was ignored).
usage_error serve_negative_threads serve --port 0 --threads -1
usage_error serve_zero_threads serve --port 0 --threads 0
usage_error serve_too_many_threads serve --port 0 --threads 1025
usage_error serve_port_out_of_range serve --port 65536
usage_error serve_negative_port serve --port -1
usage_error serve_stray_word serve --port 0 extra
usage_error serve_negative_idle_timeout serve --port 0 --idle-timeout -1
usage_error serve_idle_timeout_not_a_number serve --port 0 --idle-timeout soon
grep -q "^stampede: --idle-timeout must be 0 (never close an idle connection) or a number of seconds" "$ERR" ||
  fail "serve_idle_timeout_not_a_number: $(cat "$ERR")"
assert_eq 0 "$(count_requests "$ACCESS_LOG")" "requests nginx saw from the bad command lines"

# Go's flag forms (-c=2, --n 3, -k=true, -u=URL) are read as Go reads them.
run_stampede go_flag_forms -c=2 --n 3 -k=true -cpuNumber=1 -u="$HTTP_URL/?run=go_flag_forms"
expect_rc 0
assert_eq 6 "$(count_requests "$ACCESS_LOG" 'GET /?run=go_flag_forms ')" "requests of -c=2 --n 3"

# An output that is another output or an input is refused before any file is opened (issue 38:
# `report c.stampede --save c.stampede` emptied its own input; -p req --html req overwrote the
# curl file): by the same name, another path to it, a link, or a file a curl file reads.
run_stampede saved_first -c 1 -n 2 -u "$HTTP_URL/?run=saved_first" --save "$TEST_TMP/c.stampede"
expect_rc 0
cp "$TEST_TMP/c.stampede" "$TEST_TMP/c.copy"
mkdir -p "$TEST_TMP/sub"
printf '{"a":1}' >"$TEST_TMP/body.json"
printf 'curl -d @body.json %s\n' "$HTTP_URL/?run=clash" >"$TEST_TMP/req.curl"
printf 'name\nann\n' >"$TEST_TMP/v.csv"
echo keep >"$TEST_TMP/out.html"
ln "$TEST_TMP/body.json" "$TEST_TMP/body.hard"
cp "$TEST_TMP/req.curl" "$TEST_TMP/req.copy"
usage_error report_saves_over_its_input report "$TEST_TMP/c.stampede" --save "$TEST_TMP/c.stampede"
grep -q "^stampede: --save '.*/c.stampede' is also a saved run it reads: writing it would destroy it" "$ERR" ||
  fail "report_saves_over_its_input: $(cat "$ERR")"
usage_error report_html_over_save report "$TEST_TMP/c.stampede" --save "$TEST_TMP/out.html" \
  --html "$TEST_TMP/sub/../out.html"
usage_error html_over_save -c 1 -n 1 -u "$HTTP_URL/?run=clash" --save "$TEST_TMP/out.html" \
  --html "$TEST_TMP/out.html"
usage_error html_over_curl_file -c 1 -n 1 -p "$TEST_TMP/req.curl" --html "$TEST_TMP/req.curl"
usage_error csv_over_curl_body -c 1 -n 1 -p "$TEST_TMP/req.curl" -e "$TEST_TMP/sub/../body.json"
grep -q "is also a file that .*/req.curl reads" "$ERR" || fail "csv_over_curl_body: $(cat "$ERR")"
usage_error csv_over_data_file -c 1 -n 1 --data-file "$TEST_TMP/v.csv" -e "$TEST_TMP/v.csv" \
  -u "$HTTP_URL/?run=clash&n=\${csv:name}"
usage_error save_over_hard_link -c 1 -n 1 -data @"$TEST_TMP/body.json" \
  --save "$TEST_TMP/body.hard" -u "$HTTP_URL/?run=clash"
usage_error shards_save_over_a_shard shards --hosts a --dir "$TEST_TMP/shards" \
  --save "$TEST_TMP/shards/shard-1.stampede" -- -c 1 -n 1 -u "$HTTP_URL/?run=clash"
cmp -s "$TEST_TMP/c.stampede" "$TEST_TMP/c.copy" || fail "the saved run was changed"
cmp -s "$TEST_TMP/req.curl" "$TEST_TMP/req.copy" || fail "the curl file was changed"
assert_eq '{"a":1}' "$(cat "$TEST_TMP/body.json")" "the curl file's body file"
assert_eq keep "$(cat "$TEST_TMP/out.html")" "an output of a refused run"
assert_eq 'name ann' "$(echo $(cat "$TEST_TMP/v.csv"))" "the CSV file"
assert_eq 0 "$(count_requests "$ACCESS_LOG" '/?run=clash')" "requests of the refused runs"
# Shards of one --run-id with other flags (-c 2 beside -c 4) merged into a run neither was.
run_stampede shard_a -c 2 -n 1 --shard 1/2 --run-id same -u "$HTTP_URL/?run=shard_plan" --save "$TEST_TMP/sa.stampede"
expect_rc 0
run_stampede shard_b -c 4 -n 1 --shard 2/2 --run-id same -u "$HTTP_URL/?run=shard_plan" --save "$TEST_TMP/sb.stampede"
expect_rc 0
usage_error shards_of_other_flags report "$TEST_TMP/sa.stampede" "$TEST_TMP/sb.stampede"
grep -qF "stampede: shard 2/2 of run same was run with other flags than shard 1/2 of run same" "$ERR" ||
  fail "shards_of_other_flags: $(cat "$ERR")"
# Devices are not files that one output overwrites: -e and --html may both go to /dev/null.
run_stampede outputs_to_dev_null -c 1 -n 1 -u "$HTTP_URL/?run=dev_null" -e /dev/null --html /dev/null
expect_rc 0
pass
