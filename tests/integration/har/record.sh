#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Re-records tests/integration/har/chromium.har: serves the HAR site (site.sh) with nginx, loads it in
# headless Chromium through record_har.py (with a cookie theme=dark the browser held before), checks
# that the HAR and nginx's log tell the same session, and prints the entries by _resourceType.
# Usage: tests/integration/har/record.sh [OUT.har]      (default: chromium.har next to this script)
# Needs nginx, chromium and Debian's python3-websockets; runs on loopback only.
HAR_DIR=$(cd "$(dirname "$0")" && pwd)
HAR_OUT=$(realpath -m "${1:-$HAR_DIR/chromium.har}")
# lib.sh wants a stampede binary as its first argument; a recording needs none.
# shellcheck source=../lib.sh
source "$HAR_DIR/../lib.sh" "$(type -P true)"
# shellcheck source=site.sh
source "$HAR_DIR/site.sh"

REC_PYTHON=/usr/bin/python3  # Debian's python3-websockets is for the system interpreter only
"$REC_PYTHON" -c 'import websockets.client' 2>/dev/null ||
  fail "$REC_PYTHON cannot import websockets: apt-get install -y python3-websockets"

start_nginx "$TEST_TMP/nginx" "$HAR_NGINX_EXTRA"
har_site "$TEST_TMP/nginx"
URL=$HTTP_URL/index.html
log "recording $URL"
set +e
timeout -k 5 120 "$REC_PYTHON" "$HAR_DIR/record_har.py" --url "$URL" --out "$TEST_TMP/recorded.har" \
  --cookie theme=dark
rc=$?
set -e
((rc == 0)) || fail "record_har.py exited $rc"
settle_log "$ACCESS_LOG"
settle_log "$HAR_LOG"

# The HAR must hold the page, its assets and the three API calls as the page made them, and nginx
# must have seen, for each API call, what the HAR says went on the wire.
"$PYTHON" - "$TEST_TMP/recorded.har" "$HAR_LOG" "$ACCESS_LOG" <<'EOF' || fail "the recorded HAR is not the expected session"
import json, sys
har = json.load(open(sys.argv[1]))["log"]
api_log = [json.loads(line) for line in open(sys.argv[2])]
access = open(sys.argv[3]).read().splitlines()
entries = har["entries"]
problems = []
def check(ok, what):
    if not ok:
        problems.append(what)
def header(pairs, name):
    return [p["value"] for p in pairs if p["name"].lower() == name.lower()]
def entry(path):
    found = [e for e in entries if e["request"]["url"].split("/", 3)[3].startswith(path.lstrip("/"))]
    check(len(found) == 1, f"{len(found)} entries for {path}")
    return found[0] if found else None

check(har["creator"] == {"name": "WebInspector", "version": "537.36"}, "creator")
expected = {"/index.html": ("document", "text/html"), "/static/style.css": ("stylesheet", "text/css"),
            "/static/app.js": ("script", "text/javascript"), "/static/logo.png": ("image", "image/png"),
            "/static/font.woff2": ("font", "font/woff2"), "/api/login": ("fetch", "application/json"),
            "/api/items": ("fetch", "application/json"), "/api/search": ("fetch", "application/json")}
for path, (kind, mime) in expected.items():
    e = entry(path)
    if e:
        check(e["_resourceType"] == kind, f"{path}: _resourceType {e['_resourceType']}, not {kind}")
        check(e["response"]["content"]["mimeType"] == mime, f"{path}: mimeType {e['response']['content']['mimeType']}")
        check(e["response"]["status"] == 200, f"{path}: status {e['response']['status']}")
check([e["startedDateTime"] for e in entries] == sorted(e["startedDateTime"] for e in entries), "entries sorted")

login, items, search = entry("/api/login"), entry("/api/items"), entry("/api/search")
if login and items and search:
    check(login["request"]["method"] == "POST", "login method")
    check(login["request"]["postData"] == {"mimeType": "application/json",
                                           "text": '{"user":"ada","password":"s3cret"}'}, "login postData")
    set_cookie = header(login["response"]["headers"], "Set-Cookie")
    check(len(set_cookie) == 1 and set_cookie[0].startswith("sid="), f"login Set-Cookie {set_cookie}")
    sid = set_cookie[0].split(";")[0] if set_cookie else "sid=?"
    check([c["name"] for c in login["response"]["cookies"]] == ["sid"], "login response cookies")
    check(header(login["request"]["headers"], "Cookie") == ["theme=dark"], "login Cookie: theme=dark only")
    check(items["request"]["method"] == "GET", "items method")
    check(items["request"]["queryString"] == [{"name": "page", "value": "2"}, {"name": "sort", "value": "new"}],
          "items queryString")
    check(header(items["request"]["headers"], "X-Trace") == ["t-1"], "items X-Trace")
    check(search["request"]["method"] == "POST", "search method")
    check(search["request"]["postData"]["text"] == "q=red+boots&size=42", "search postData text")
    check(search["request"]["postData"]["mimeType"] == "application/x-www-form-urlencoded", "search mimeType")
    for e in (items, search):
        cookie = header(e["request"]["headers"], "Cookie")
        parts = sorted(cookie[0].split("; ")) if cookie else []
        check(parts == sorted(["theme=dark", sid]), f"{e['request']['url']}: Cookie {cookie}, not theme=dark and {sid}")
        check(sorted(c["name"] for c in e["request"]["cookies"]) == ["sid", "theme"], "request cookies")
    # nginx saw the same calls: method, URI, body, cookie, X-Trace, Content-Type.
    check(len(api_log) == 3, f"{len(api_log)} /api/ lines in nginx's har.log")
    for e, line in zip((login, items, search), api_log):
        r = e["request"]
        uri = "/" + r["url"].split("/", 3)[3]
        check((line["method"], line["uri"]) == (r["method"], uri), f"nginx saw {line['method']} {line['uri']}, HAR {r['method']} {uri}")
        check(line["body"] == r.get("postData", {}).get("text", ""), f"{uri}: nginx body {line['body']!r}")
        check(line["cookie"] == "; ".join(header(r["headers"], "Cookie")), f"{uri}: nginx cookie {line['cookie']!r}")
        check(line["x_trace"] == "; ".join(header(r["headers"], "X-Trace")), f"{uri}: nginx X-Trace")
        check(line["content_type"] == "; ".join(header(r["headers"], "Content-Type")), f"{uri}: nginx Content-Type")
        check(line["status"] == e["response"]["status"], f"{uri}: status")
    check(sid == "sid=" + api_log[0]["request_id"], "the sid is the login's nginx $request_id")
# Every request in the HAR reached nginx, and nothing else did.
seen = sorted(l.split('"')[1].split(" ")[1] for l in access)
urls = sorted("/" + e["request"]["url"].split("/", 3)[3] for e in entries)
check(seen == urls, f"nginx access.log {seen} vs HAR {urls}")
for p in problems:
    print("  " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
EOF

cp "$TEST_TMP/recorded.har" "$HAR_OUT"
log "wrote $HAR_OUT"
"$PYTHON" - "$HAR_OUT" <<'EOF'
import collections, json, sys
entries = json.load(open(sys.argv[1]))["log"]["entries"]
kinds = collections.Counter(e["_resourceType"] for e in entries)
print(f"{len(entries)} entries: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
for e in entries:
    r = e["request"]
    print(f"  {e['startedDateTime']}  {r['method']:4} {e['response']['status']} {e['_resourceType']:10} "
          f"{e['time']:8.2f} ms  {r['url']}")
EOF
pass
