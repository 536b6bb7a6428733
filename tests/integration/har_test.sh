#!/usr/bin/env bash
# HAR replay against nginx: a session really recorded from headless Chromium (har/chromium.har)
# and the same in Firefox's shape (har/firefox.har) replay, moved by -u, with the requests the
# browser sent (method, URI, body, headers, the cookie the browser had), the static assets left
# out, each user's own login cookie from its jar instead of the recorded one, Origin and Referer
# moved too; --har-include and --har-exclude choose entries; --think har waits the recorded
# pauses; a bad HAR or a HAR flag without a HAR is a usage error before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
HAR_DIR=$(cd "$(dirname "$0")/har" && pwd)
source "$HAR_DIR/site.sh"
start_nginx "$TEST_TMP/nginx" "$HAR_NGINX_EXTRA"
har_site "$TEST_TMP/nginx"

# check_api_calls HAR LOG FROM USERS ROUNDS: the /api/ lines of LOG after line FROM are the HAR's
# API calls, USERS x ROUNDS times each, as the browser sent them; each carries the recorded
# cookies that no replayed response set, and the sid a login of this run set (never the
# recorded one).
check_api_calls() {
  settle_log "$2"
  tail -n +"$(($3 + 1))" "$2" >"$TEST_TMP/api.log"
  "$PYTHON" - "$1" "$TEST_TMP/api.log" "$4" "$5" <<'EOF' || fail "$(basename "$1"): the replayed API calls differ from the recorded ones (above)"
import json, sys
from collections import Counter
har = json.load(open(sys.argv[1]))
lines = [json.loads(line) for line in open(sys.argv[2])]
times = int(sys.argv[3]) * int(sys.argv[4])
recorded = {}
recorded_sid = None
for entry in har["log"]["entries"]:
    request = entry["request"]
    path = "/" + request["url"].split("/", 3)[3]
    if not path.startswith("/api/"):
        continue
    headers = {h["name"].lower(): h["value"] for h in request["headers"]}
    body = request.get("postData", {}).get("text", "")
    recorded[path] = (request["method"], body, headers.get("content-type", ""), headers.get("x-trace", ""))
    for c in entry["response"].get("cookies", []):
        if c["name"] == "sid":
            recorded_sid = c["value"]
assert len(recorded) == 3 and recorded_sid, (recorded, recorded_sid)
assert Counter(line["uri"] for line in lines) == {uri: times for uri in recorded}, Counter(line["uri"] for line in lines)
logins = {line["request_id"] for line in lines if line["uri"] == "/api/login"}
assert len(logins) == times
for line in lines:
    want = recorded[line["uri"]]
    got = (line["method"], line["body"], line["content_type"], line["x_trace"])
    assert got == want, (line["uri"], got, want)
    cookies = dict(pair.split("=", 1) for pair in line["cookie"].split("; ") if pair)
    assert cookies.get("theme") == "dark", line
    if line["uri"] == "/api/login" and "sid" not in cookies:
        continue  # a user's first login: its jar holds no sid yet
    assert cookies["sid"] in logins and cookies["sid"] != recorded_sid, line
print("%d API calls as recorded" % len(lines), file=sys.stderr)
EOF
}

replay() {  # replay NAME HAR USERS ROUNDS [ARGS...]: a run whose API calls must be the HAR's
  local name=$1 har=$2 users=$3 rounds=$4 before
  shift 4
  before=$(wc -l <"$HAR_LOG" 2>/dev/null || echo 0)
  run_stampede "$name" -c "$users" -n "$rounds" -k -p "$har" -u "$HTTP_URL" --output json "$@"
  expect_rc 0
  check_api_calls "$har" "$HAR_LOG" "$before" "$users" "$rounds"
}

for browser in chromium firefox; do
  static_before=$(count_requests "$ACCESS_LOG" " /static/")
  replay "$browser" "$HAR_DIR/$browser.har" 3 4
  json_check "$OUT" <<EOF
g("requests.total") == 48 and g("requests.succeeded") == 48 ## 4 steps x 3 users x 4 rounds
EOF
  grep -qF "$browser.har: replaying 4 of 9 entries (left out: 1 font, 2 images, 1 script, 1 stylesheet)" "$ERR" ||
    fail "$browser: the choice of entries was not printed: $(cat "$ERR")"
  assert_eq "$static_before" "$(count_requests "$ACCESS_LOG" " /static/")" "$browser: static assets sent"
done
assert_eq 24 "$(count_requests "$ACCESS_LOG" '"GET /index.html HTTP/1.1"')" "pages replayed"

# A session recorded now, from headless Chromium against this nginx, replays with the requests
# the browser sent: nginx logged the same API calls, in the same order, both times.
browser_from=$(wc -l <"$HAR_LOG")
timeout -k 5 120 /usr/bin/python3 "$HAR_DIR/record_har.py" --url "$HTTP_URL/index.html" \
  --out "$TEST_TMP/fresh.har" --cookie theme=dark || fail "recording a HAR from Chromium failed"
settle_log "$HAR_LOG"
replay_from=$(wc -l <"$HAR_LOG")
replay fresh "$TEST_TMP/fresh.har" 1 1
"$PYTHON" - "$HAR_LOG" "$browser_from" "$replay_from" <<'EOF' || fail "the replay sent other requests than the browser (above)"
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1])]
browser, replayed = lines[int(sys.argv[2]):int(sys.argv[3])], lines[int(sys.argv[3]):]
same = lambda line: (line["method"], line["uri"], line["body"], line["content_type"], line["x_trace"],
                     sorted(pair.split("=")[0] for pair in line["cookie"].split("; ") if pair))
assert len(browser) == 3 and [same(l) for l in browser] == [same(l) for l in replayed], (browser, replayed)
EOF

# Origin and Referer name the server -u moved the steps to, not the recorded one.
run_stampede print -p "$HAR_DIR/chromium.har" -u "$HTTP_URL" --print-request
expect_rc 0
tr -d '\r' <"$OUT" >"$TEST_TMP/print.txt"
assert_eq 2 "$(grep -cxF "Origin: $HTTP_URL" "$TEST_TMP/print.txt")" "Origin headers moved"
assert_eq 3 "$(grep -cxF "Referer: $HTTP_URL/index.html" "$TEST_TMP/print.txt")" "Referer headers moved"
assert_eq 0 "$(grep -c "38287" "$TEST_TMP/print.txt")" "the recording's port left in a request"

# --har-include chooses by URL, assets too; --har-exclude then leaves out what it matches.
before=$(wc -l <"$ACCESS_LOG")
run_stampede include -c 1 -n 1 -k -p "$HAR_DIR/chromium.har" -u "$HTTP_URL" --har-include . --har-exclude 'search|\.png' --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 7' "include: all 9 entries but the search and the logo"
grep -qF "replaying 7 of 9 entries (left out: 2 by --har-exclude)" "$ERR" || fail "include: $(cat "$ERR")"
settle_log
tail -n +"$((before + 1))" "$ACCESS_LOG" | awk '{print $5}' | sort >"$TEST_TMP/include.paths"
printf '%s\n' /api/items?page=2\&sort=new /api/login /index.html /static/app.js /static/favicon.ico \
  /static/font.woff2 /static/style.css | sort >"$TEST_TMP/include.want"
diff "$TEST_TMP/include.want" "$TEST_TMP/include.paths" >&2 || fail "include: other requests than the chosen entries"

# --think har: the recorded pauses (about 0.16 s, 0.40 s and 0.60 s) come between the steps, so a
# round takes at least their sum; without it, the steps follow one another at once.
pauses=$("$PYTHON" - "$HAR_DIR/chromium.har" <<'EOF'
import json, sys
from datetime import datetime
entries = [e for e in json.load(open(sys.argv[1]))["log"]["entries"]
           if "/api/" in e["request"]["url"] or e["request"]["url"].endswith("/index.html")]
start = lambda e: datetime.fromisoformat(e["startedDateTime"].replace("Z", "+00:00")).timestamp()
print("%.3f" % sum(max(0, start(b) - start(a) - a["time"] / 1000) for a, b in zip(entries, entries[1:])))
EOF
)
log "recorded pauses: ${pauses}s"
replay think "$HAR_DIR/chromium.har" 2 2 --think har
json_assert "$OUT" "g('duration_s') >= 2 * $pauses - 0.01" "--think har: 2 rounds take at least twice the pauses"

# Refused before anything is sent.
before=$(wc -l <"$ACCESS_LOG")
printf 'curl %s/api/items\n' "$HTTP_URL" >"$TEST_TMP/flow.curl.sh"
printf '{"log": {"entries": [' >"$TEST_TMP/cut.har"
printf '{"log": {"version": "1.2"}}' >"$TEST_TMP/empty.har"
run_stampede think_curl -c 1 -n 1 -p "$TEST_TMP/flow.curl.sh" --think har
expect_rc 2
grep -qF -- "--think har replays the pauses a HAR file recorded: give -p FILE.har" "$ERR" || fail "think_curl: $(cat "$ERR")"
run_stampede include_curl -c 1 -n 1 -p "$TEST_TMP/flow.curl.sh" --har-include api
expect_rc 2
grep -qF -- "--har-include and --har-exclude choose a HAR file's entries" "$ERR" || fail "include_curl: $(cat "$ERR")"
run_stampede cut -c 1 -n 1 -p "$TEST_TMP/cut.har" -u "$HTTP_URL"
expect_rc 2
grep -qF "cut.har: not a HAR file: parse error at line 1, column 22" "$ERR" || fail "cut: $(cat "$ERR")"
run_stampede empty -c 1 -n 1 -p "$TEST_TMP/empty.har"
expect_rc 2
grep -qF "empty.har: not a HAR file: no log.entries" "$ERR" || fail "empty: $(cat "$ERR")"
run_stampede missing -c 1 -n 1 -p "$TEST_TMP/none.har"
expect_rc 2
grep -qF "none.har: cannot read this HAR file" "$ERR" || fail "missing: $(cat "$ERR")"
run_stampede nothing -c 1 -n 1 -p "$HAR_DIR/chromium.har" --har-include 'no-such-entry'
expect_rc 2
grep -qF "chromium.har: nothing to replay: replaying 0 of 9 entries (left out: 9 not in --har-include)" "$ERR" ||
  fail "nothing: $(cat "$ERR")"
run_stampede bad_regex -c 1 -n 1 -p "$HAR_DIR/chromium.har" --har-exclude '(api'
expect_rc 2
grep -qF "bad --har-exclude '(api'" "$ERR" || fail "bad_regex: $(cat "$ERR")"
settle_log
assert_eq "$before" "$(wc -l <"$ACCESS_LOG")" "requests sent by refused runs"
pass
