#!/usr/bin/env bash
# curl's --http2 on http:// asks to upgrade (`Connection: Upgrade, HTTP2-Settings`, `Upgrade: h2c`),
# and so does stampede replaying it: against Apache (mod_http2), which switches, each connection's
# first request gets a 101 and its answer on HTTP/2, as curl's does, and every request is counted
# once; a POST it declines is answered on HTTP/1.1 and the next GET on that connection switches;
# nginx, which does not upgrade, answers every request on HTTP/1.1, one kept connection a user;
# the built-in target switches too.
source "$(dirname "$0")/lib.sh" "$@"
command -v apache2 >/dev/null || fail "'apache2' is not installed (apt-get install apache2)"
start_apache "$TEST_TMP/apache"

# shapes LOG: each line's method, path, protocol and status, sorted (Apache logs a switched
# request's 101 once its HTTP/2 answer is done, or before it), the client port left out.
shapes() { settle_log "$1"; awk '{print $2, $3, $4, $5}' "$1" | sort; }
# count LOG TEXT: lines holding TEXT.
count() { settle_log "$1"; grep -cF -- "$2" "$1" || true; }

# Real curl first: one request, a 101, then the answer on HTTP/2.
curl -sS --http2 "$APACHE_URL/index.html" -o /dev/null || fail "curl could not reach Apache"
expected=$'GET /index.html HTTP/1.1 101\nGET /index.html HTTP/2.0 200'
assert_eq "$expected" "$(shapes "$APACHE_LOG")" "what Apache saw of curl --http2"
: >"$APACHE_LOG"
printf '%s\n' "curl --http2 $APACHE_URL/index.html" >"$TEST_TMP/get.curl.sh"
run_stampede one -c 1 -n 1 -p "$TEST_TMP/get.curl.sh" --output json
expect_rc 0
assert_eq "$expected" "$(shapes "$APACHE_LOG")" "what Apache saw of stampede (as of curl)"

# 3 users x 4 rounds with -k: every request answered on HTTP/2, each connection switched once.
# (Apache ends an upgraded connection with GOAWAY once it is idle, so users open several.)
: >"$APACHE_LOG"
run_stampede users -c 3 -n 4 -k -p "$TEST_TMP/get.curl.sh" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.total") == 12 and g("requests.failed") == 0 and g("status_codes") == {"200": 12}
g("bytes.body_received") == 12 * 18 ## "hello from apache\n" each time
list(g("connections.protocols")) == ["h2c"] ## every connection switched
EOF
assert_eq 12 "$(count "$APACHE_LOG" 'GET /index.html HTTP/2.0 200')" "requests answered on HTTP/2"
switches=$(count "$APACHE_LOG" ' 101')
assert_eq "$switches" "$(json_eval "$OUT" 'g("connections.protocols.h2c")')" "h2c connections"
assert_eq "$switches" "$(settle_log "$APACHE_LOG"; awk '{print $1}' "$APACHE_LOG" | sort -u | wc -l)" \
  "connections (one 101 each)"
assert_eq $((12 + switches)) "$(wc -l <"$APACHE_LOG")" "lines: the requests and the 101s"

# Without -k a connection a request, each asking anew.
: >"$APACHE_LOG"
run_stampede fresh -c 2 -n 2 -p "$TEST_TMP/get.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 4 and g("connections.protocols") == {"h2c": 4}' \
  "four upgraded connections"
assert_eq "4 4" "$(count "$APACHE_LOG" ' 101') $(count "$APACHE_LOG" 'HTTP/2.0 200')" "101s and answers"

# Apache declines to switch for a request with a body: the POST is answered on HTTP/1.1 and the
# connection stays HTTP/1.1 until the GET after it, which asks again (as curl does) and switches.
: >"$APACHE_LOG"
printf '%s\n' "curl --http2 -d 'item=1' $APACHE_URL/index.html" \
  "curl --http2 $APACHE_URL/index.html" >"$TEST_TMP/post-get.curl.sh"
run_stampede post-get -c 2 -n 3 -k -p "$TEST_TMP/post-get.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 12 and g("requests.failed") == 0' "12 answers"
assert_eq 6 "$(count "$APACHE_LOG" 'GET /index.html HTTP/2.0 200')" "GETs answered on HTTP/2"
assert_eq 6 "$(count "$APACHE_LOG" 'POST /index.html HTTP/')" "POSTs"
assert_eq 0 "$(count "$APACHE_LOG" 'POST /index.html HTTP/1.1 101')" "POSTs switched"
# Each user's first POST goes on a new connection as HTTP/1.1, declined; a later one may go on
# a switched connection as HTTP/2 (or again as HTTP/1.1 once Apache has ended that one).
declined=$(count "$APACHE_LOG" 'POST /index.html HTTP/1.1 200')
((declined >= 2)) || fail "only $declined POSTs declined on HTTP/1.1 (each user's first is)"

# nginx does not upgrade: every request is answered on HTTP/1.1, asking each time, on one kept
# connection per user.
start_nginx "$TEST_TMP/nginx" "location /up { access_log $TEST_TMP/nginx/up.log upgrade; return 200 'ok'; }"
printf '%s\n' "curl --http2 $HTTP_URL/up" >"$TEST_TMP/nginx.curl.sh"
run_stampede nginx -c 2 -n 3 -k -p "$TEST_TMP/nginx.curl.sh" --output json
expect_rc 0
json_check "$OUT" <<'EOF'
g("requests.succeeded") == 6 and g("status_codes") == {"200": 6}
g("connections.protocols") == {"http/1.1": 2} ## kept on HTTP/1.1, one connection a user
EOF
upgrade_asks=$(count "$TEST_TMP/nginx/up.log" '"Upgrade, HTTP2-Settings" "h2c" "AAIAAAAAAAQBAAAA"')
assert_eq 6 "$upgrade_asks" "requests that asked to upgrade, with stampede's SETTINGS"
assert_eq 2 "$(awk '{print $1}' "$TEST_TMP/nginx/up.log" | sort -u | wc -l)" "nginx connections"

# The built-in target switches too.
start_serve
printf '%s\n' "curl --http2 http://127.0.0.1:$SERVE_PORT/" >"$TEST_TMP/serve.curl.sh"
run_stampede serve -c 3 -n 4 -k -p "$TEST_TMP/serve.curl.sh" --output json
expect_rc 0
json_assert "$OUT" 'g("requests.succeeded") == 12 and g("connections.protocols") == {"h2c": 3}' \
  "the target's upgraded connections"

# --print-request shows the HTTP/1.1 request that asks; -m cannot share an upgrade.
run_stampede printed -p "$TEST_TMP/get.curl.sh" --print-request
expect_rc 0
grep -qx $'Upgrade: h2c\r' "$OUT" || fail "--print-request does not show Upgrade: h2c"
grep -q "asks to upgrade to HTTP/2 (h2c)" "$ERR" || fail "--print-request does not say it asks to upgrade"
run_stampede shared -c 2 -n 1 -m 1 -p "$TEST_TMP/get.curl.sh"
expect_rc 2
grep -q -- "-m with --http2 on http://" "$ERR" || fail "-m with an upgrade: $(cat "$ERR")"
pass
