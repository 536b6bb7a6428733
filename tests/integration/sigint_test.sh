#!/usr/bin/env bash
# SIGINT during an endless-looking run: exit 0, a full report, counts that add up with nginx's log.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx"

interrupt_run json 1.5 -k -c 4 -n 1000000 -timeout 20 -u "$HTTP_URL/?run=json" --output json
expect_rc 0
awk -v t="$ELAPSED" 'BEGIN { exit !(t < 10) }' || fail "the run took ${ELAPSED}s: SIGINT did not stop it promptly"
json_check "$OUT" <<'EOF'
g("requests.total") > 0 ## some requests completed in the 1.5 s
g("requests.succeeded") + g("requests.failed") == g("requests.total")
sum(g("status_codes").values()) == g("requests.total")
list(g("status_codes")) == ["200"] and g("requests.failed") == 0 ## nginx only said 200; in-flight requests are abandoned, not failed
0 <= g("requests.abandoned") <= 4 ## at most one in-flight request per user
len(g("per_second")) > 0 ## per_second is not empty
g("stop_reason") == "interrupted"
EOF
total=$(json_eval "$OUT" 'g("requests.total")')
abandoned=$(json_eval "$OUT" 'g("requests.abandoned")')
logged=$(count_requests "$ACCESS_LOG" 'GET /?run=json HTTP/1.1')
assert_le "$total" "$logged" "nginx saw every completed request (JSON total <= log lines)"
assert_le "$logged" $((total + abandoned)) "nginx saw nothing beyond completed + abandoned requests (log lines <= total + abandoned)"

interrupt_run text 1 -k -c 4 -n 1000000 -timeout 20 -u "$HTTP_URL/?run=text"
expect_rc 0
complete=$(text_field "$OUT" "Complete requests")
[[ $complete =~ ^[1-9][0-9]*$ ]] || fail "text report after SIGINT has no positive 'Complete requests'; report was:
$(cat "$OUT")"
logged=$(count_requests "$ACCESS_LOG" 'GET /?run=text HTTP/1.1')
assert_le "$complete" "$logged" "nginx saw every completed request of the text run"
assert_le "$logged" $((complete + 4)) "nginx saw at most c requests beyond the completed ones"
pass
