#!/usr/bin/env bash
# --html: the pages of a run with refusals, a flow, a sweep and a merge of saved runs render in
# headless Chromium (Debian's) with every chart drawn from the run's numbers and nothing loaded
# from the network (html/check_page.py); the numbers are the ones nginx logged and the JSON
# report gave; an unwritable --html is a usage error before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
command -v chromium >/dev/null || fail "chromium is not installed (scripts/install-deps.sh --test)"
start_nginx "$TEST_TMP/nginx"
start_serve --max-in-flight 2

# check_page PAGE: the page drew every chart, its tables and figures hold its data.
check_page() {
  "$PYTHON" "$HERE/html/check_page.py" "$1" --screenshot "${1%.html}.png" >&2 || fail "$1 does not show its run (see above)"
}

# embedded PAGE EXPR: EXPR over the data the page carries (`d`), as json_eval does.
embedded() {
  "$PYTHON" - "$1" "$2" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
text = re.search(r'<script type="application/json" id="stampede-run">(.*?)</script>', page, re.S).group(1)
d = json.loads(text)
print(json.dumps(eval(sys.argv[2], {"d": d})))
PY
}

# A run the server mostly refuses (503 past 2 requests at once): both codes drawn.
run_stampede refused -c 4 -z 2s -k -u "http://127.0.0.1:$SERVE_PORT/delay/5" --html "$TEST_TMP/refused.html" --output json
expect_rc 0
check_page "$TEST_TMP/refused.html"
assert_eq "$(json_eval "$OUT" 'g("requests")')" "$(embedded "$TEST_TMP/refused.html" 'd["report"]["requests"]')" "the page's requests against the JSON report's"
assert_eq true "$(embedded "$TEST_TMP/refused.html" 'sorted(d["report"]["status_codes"]) == ["200", "503"]')" "both status codes on the page"
assert_eq true "$(embedded "$TEST_TMP/refused.html" 'sum(b[2] for b in d["distribution"]["buckets"]) == d["report"]["requests"]["total"]')" "the histogram's counts against the requests"

# A flow of two requests against nginx: its steps' table, every request nginx logged.
cat >"$TEST_TMP/flow.curl" <<EOF
curl '$HTTP_URL/?run=html_flow_1'
curl '$HTTP_URL/?run=html_flow_2' -H 'X-Step: 2'
EOF
run_stampede flow -c 3 -n 40 -k -p "$TEST_TMP/flow.curl" --html "$TEST_TMP/flow.html"
expect_rc 0
check_page "$TEST_TMP/flow.html"
assert_eq "$(count_requests "$ACCESS_LOG" 'GET /?run=html_flow_')" "$(embedded "$TEST_TMP/flow.html" 'd["report"]["requests"]["succeeded"]')" "requests nginx logged against the page's"

# A sweep: its steps and knee.
run_stampede sweep --sweep 1,2,4 -z 1s --warmup 0 -k -u "http://127.0.0.1:$SERVE_PORT/delay/20" --html "$TEST_TMP/sweep.html"
expect_rc 0
check_page "$TEST_TMP/sweep.html"
assert_eq 3 "$(embedded "$TEST_TMP/sweep.html" 'len(d["sweep"]["steps"])')" "the sweep's steps on the page"

# Two saved runs merged by `stampede report`.
run_stampede saved_a -c 2 -n 100 -k -u "$HTTP_URL/?run=html_merge" --save "$TEST_TMP/a.stampede"
run_stampede saved_b -c 2 -n 50 -k -u "$HTTP_URL/?run=html_merge" --save "$TEST_TMP/b.stampede"
run_stampede merged report "$TEST_TMP/a.stampede" "$TEST_TMP/b.stampede" --html "$TEST_TMP/merged.html"
expect_rc 0
check_page "$TEST_TMP/merged.html"
assert_eq "$(count_requests "$ACCESS_LOG" 'GET /?run=html_merge ')" "$(embedded "$TEST_TMP/merged.html" 'd["report"]["requests"]["succeeded"]')" "requests nginx logged against the merged page's"

run_stampede unwritable -c 1 -n 1 -u "$HTTP_URL/?run=html_unwritable" --html "$TEST_TMP/no/such/dir/r.html"
expect_rc 2
grep -q "^stampede: --html: cannot write" "$ERR" || fail "unwritable: $(cat "$ERR")"
assert_eq 0 "$(count_requests "$ACCESS_LOG" 'GET /?run=html_unwritable ')" "requests sent with an unwritable --html"
pass
