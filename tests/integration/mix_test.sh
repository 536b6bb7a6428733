#!/usr/bin/env bash
# Weighted mixes against nginx: three curl files given as -p FILE:WEIGHT (8, 1, 3); over 10,000
# rounds each flow's share of them is within 2 points of its weight's, nginx saw exactly the
# rounds the report gives each flow (every step of a round, in order, on the flow's paths), the
# text report has a table per flow and the JSON its `flows`; -u moves every flow to its server;
# a bad weight is a usage error before anything is sent.
source "$(dirname "$0")/lib.sh" "$@"
start_nginx "$TEST_TMP/nginx" 'location /browse/ { return 200 "ok\n"; }
        location /checkout/ { return 200 "paid\n"; }
        location /search/ { return 200 "found\n"; }'

cat >"$TEST_TMP/browse.curl.sh" <<EOF
curl 'http://127.0.0.1:1/browse/home'
curl 'http://127.0.0.1:1/browse/item'
EOF
echo "curl 'http://127.0.0.1:1/checkout/pay' -d 'card=4242'" >"$TEST_TMP/checkout.curl.sh"
echo "curl 'http://127.0.0.1:1/search/q?boots'" >"$TEST_TMP/search.curl.sh"
cd "$TEST_TMP"

run_stampede mix -c 10 -n 1000 -k -u "$HTTP_URL" -p browse.curl.sh:8 -p checkout.curl.sh:1 \
  -p search.curl.sh:3 --output json
expect_rc 0
json_check "$OUT" <<'EOF'
[f["file"] for f in g("flows")] == ["browse.curl.sh", "checkout.curl.sh", "search.curl.sh"]
[(f["weight"], f["first_step"], f["steps"]) for f in g("flows")] == [(8, 1, 2), (1, 3, 1), (3, 4, 1)]
sum(f["rounds"] for f in g("flows")) == 10000 ## every round picked one flow
all(abs(f["rounds"] / 10000 - f["weight"] / 12) <= 0.02 for f in g("flows")) ## shares within 2 points of the weights'
[s["flow"] for s in g("steps")] == [1, 1, 2, 3]
g("steps")[0]["requests"]["total"] == g("steps")[1]["requests"]["total"] ## a browse round sends both steps
g("requests.total") == g("requests.succeeded") == 10000 + g("flows")[0]["rounds"]
EOF
rounds=$(json_eval "$OUT" '" ".join(str(f["rounds"]) for f in g("flows"))')
read -r browse checkout search <<<"$rounds"
log "rounds by flow: browse $browse, checkout $checkout, search $search"
assert_eq "$browse" "$(count_requests "$ACCESS_LOG" '"GET /browse/home ')" "browse rounds nginx saw"
assert_eq "$browse" "$(count_requests "$ACCESS_LOG" '"GET /browse/item ')" "browse second steps nginx saw"
assert_eq "$checkout" "$(count_requests "$ACCESS_LOG" '"POST /checkout/pay ')" "checkout rounds nginx saw"
assert_eq "$search" "$(count_requests "$ACCESS_LOG" '"GET /search/q?boots ')" "search rounds nginx saw"
# On each connection (one user's), every /browse/home is followed at once by its /browse/item.
awk '{print $1, $5}' "$ACCESS_LOG" | "$PYTHON" -c '
import sys
last = {}
for line in sys.stdin:
    connection, path = line.split()
    if path == "/browse/item":
        assert last.get(connection) == "/browse/home", "a browse round out of order on " + connection
    last[connection] = path
' || fail "a flow's steps were not sent in order"

# The same mix twice picks the same flows (each user draws from its own seed).
run_stampede again -c 10 -n 1000 -k -u "$HTTP_URL" -p browse.curl.sh:8 -p checkout.curl.sh:1 \
  -p search.curl.sh:3 --output json
json_assert "$OUT" "' '.join(str(f['rounds']) for f in g('flows')) == '$rounds'" "a rerun picks the same flows"

# The text report: the flows' shares, then each flow's own steps.
run_stampede text -c 2 -n 50 -k -u "$HTTP_URL" -p browse.curl.sh:8 -p checkout.curl.sh
expect_rc 0
grep -qF "Flows (each user picks one by weight, every round):" "$OUT" || fail "no flows table: $(cat "$OUT")"
grep -qE '^   1       8    88\.9% +[0-9]+ +[0-9.]+%  browse\.curl\.sh$' "$OUT" || fail "browse's line: $(cat "$OUT")"
grep -qE '^   2       1    11\.1% +[0-9]+ +[0-9.]+%  checkout\.curl\.sh$' "$OUT" || fail "checkout's line: $(cat "$OUT")"
grep -qF "Steps of flow 2 (checkout.curl.sh), in this order:" "$OUT" || fail "no table for flow 2: $(cat "$OUT")"

# Refused before anything is sent.
before=$(wc -l <"$ACCESS_LOG")
run_stampede zero -c 1 -n 1 -u "$HTTP_URL" -p browse.curl.sh:0 -p search.curl.sh
expect_rc 2
grep -qF -- "-p browse.curl.sh:0: a flow's weight is a whole number from 1 to 1000000" "$ERR" || fail "zero: $(cat "$ERR")"
run_stampede huge -c 1 -n 1 -u "$HTTP_URL" -p browse.curl.sh:99999999999999999999 -p search.curl.sh
expect_rc 2
grep -qF "a flow's weight is a whole number from 1 to 1000000" "$ERR" || fail "huge: $(cat "$ERR")"
run_stampede missing -c 1 -n 1 -u "$HTTP_URL" -p browse.curl.sh:2 -p nothing.curl.sh:1
expect_rc 2
grep -qF "nothing.curl.sh:1:1: cannot read this curl file" "$ERR" || fail "missing: $(cat "$ERR")"
settle_log
assert_eq "$before" "$(wc -l <"$ACCESS_LOG")" "requests sent by refused runs"
pass
