#!/usr/bin/env bash
# --save, `stampede report` and `stampede compare` against nginx and `stampede serve`: a saved run
# renders as the live run did, two merge into exactly what nginx logged (and -g's lines), the
# merge's percentiles are within the histogram's error of an exact sort of every request's
# latency (from -g), HdrHistogram's own JavaScript port reads the histograms with the same counts
# and percentiles, compare catches a real 10 ms regression (exit 4), and a file that is not a
# saved run, or is newer, is exit 2.
source "$(dirname "$0")/lib.sh" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
start_nginx "$TEST_TMP/nginx"
HDR_DIR=$TEST_TMP/hdr
mkdir -p "$HDR_DIR"
cp "$HERE/hdr/hdr_check.js" "$HDR_DIR/"
ln -s "$(npm_modules "$HERE/hdr")" "$HDR_DIR/node_modules"

# A run saved renders again as it printed live.
run_stampede a -c 3 -n 200 -k -u "$HTTP_URL/?run=ab" --save "$TEST_TMP/a.stampede" --output json -g "$TEST_TMP/a.tsv"
expect_rc 0
run_stampede a_again report "$TEST_TMP/a.stampede" --output json
expect_rc 0
diff <("$PYTHON" -m json.tool "$TEST_TMP/a.out") <("$PYTHON" -m json.tool "$OUT") >&2 ||
  fail "report of a saved run differs from the live run's JSON report"

# Two runs merge into one with every request nginx logged.
run_stampede b -c 2 -n 150 -k -u "$HTTP_URL/?run=ab" --save "$TEST_TMP/b.stampede" -g "$TEST_TMP/b.tsv"
expect_rc 0
run_stampede merged report "$TEST_TMP/a.stampede" "$TEST_TMP/b.stampede" --output json --save "$TEST_TMP/m.stampede"
expect_rc 0
assert_eq 900 "$(count_requests "$ACCESS_LOG" 'GET /?run=ab ')" "requests nginx logged"
json_check "$OUT" <<'EOF'
g("requests.total") == 900 and g("requests.succeeded") == 900 ## both runs' requests, added
g("status_codes") == {"200": 900}
g("users") == 5
sum(s["succeeded"] for s in g("per_second")) == 900 ## the seconds, lined up, add up too
EOF
cp "$OUT" "$TEST_TMP/merged.json"

# -g kept every request, ab's columns first; the merge's percentiles are those of all of them.
head -n 1 "$TEST_TMP/a.tsv" | grep -qx $'starttime\tseconds\tctime\tdtime\tttime\twait\tstatus\terror' ||
  fail "-g: header: $(head -n 1 "$TEST_TMP/a.tsv")"
assert_eq 900 "$(tail -q -n +2 "$TEST_TMP/a.tsv" "$TEST_TMP/b.tsv" | awk -F'\t' '$7 == 200 && $8 == "ok"' | wc -l)" "-g's lines of 200s"
"$PYTHON" - "$TEST_TMP/merged.json" "$TEST_TMP/a.tsv" "$TEST_TMP/b.tsv" <<'PY' || fail "merged percentiles are not those of every request"
import json, math, sys
ours = json.load(open(sys.argv[1]))["latency_ms"]
latencies = sorted(float(line.split("\t")[4]) for path in sys.argv[2:] for line in list(open(path))[1:])
for q in (50, 90, 99):
    exact = latencies[max(1, math.ceil(q / 100 * len(latencies))) - 1]
    # A bucket's top is at most 1/128 above its values; -g's milliseconds are rounded to 1 us.
    assert exact - 0.0015 <= ours["p%d" % q] <= exact * (1 + 1 / 128) + 0.0015, (q, exact, ours)
PY

# HdrHistogram's JavaScript port decodes the histograms: same counts, same percentiles.
node "$HDR_DIR/hdr_check.js" "$TEST_TMP/a.stampede" "$TEST_TMP/b.stampede" >"$TEST_TMP/ab.json" &&
  node "$HDR_DIR/hdr_check.js" "$TEST_TMP/m.stampede" >"$TEST_TMP/m.json" ||
  fail "hdr-histogram-js could not decode the saved runs"
"$PYTHON" - "$TEST_TMP/ab.json" "$TEST_TMP/m.json" "$TEST_TMP/merged.json" <<'PY' || fail "HdrHistogram reads other figures than stampede"
import json, sys
ab, merged = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ours = json.load(open(sys.argv[3]))["latency_ms"]
(a, b), m = ab["files"], merged["files"][0]
assert a["total"]["count"] == 600 and b["total"]["count"] == 300, ab
for f in (a, b, m):
    assert f["seconds"]["count"] == f["total"]["count"], ("seconds add up to the total", f)
assert ab["added"] == m["total"], ("a + b added by HdrHistogram == stampede's merge", ab, m)
for q in ("p50", "p90", "p99"):
    # stampede reports the top of a value's bucket, as HdrHistogram does, clamped to the max.
    theirs = min(m["total"][q], m["total"]["max"]) / 1e6
    assert abs(theirs - ours[q]) <= 0.0005, (q, theirs, ours[q])
PY

# A threshold judged on the merged run sets the exit status.
run_stampede judged report "$TEST_TMP/m.stampede" --threshold 'p50<1us'
expect_rc 3
grep -q 'FAIL' "$OUT" || fail "judged: no FAIL line: $(cat "$OUT")"

# compare: the same service twice keeps a loose bound; 10 ms more per request breaks it. The
# bounds are on the median: a run's first requests (connecting; slow under the sanitizers) are
# its tail, and with 200 requests its p99 is one of its two slowest.
start_serve
run_stampede base -c 2 -n 100 -k -u "http://127.0.0.1:$SERVE_PORT/delay/5" --save "$TEST_TMP/base.stampede"
expect_rc 0
run_stampede same -c 2 -n 100 -k -u "http://127.0.0.1:$SERVE_PORT/delay/5" --save "$TEST_TMP/same.stampede"
run_stampede slow -c 2 -n 100 -k -u "http://127.0.0.1:$SERVE_PORT/delay/15" --save "$TEST_TMP/slow.stampede"
run_stampede compare_same compare "$TEST_TMP/base.stampede" "$TEST_TMP/same.stampede" --max-p50-regress 50% --max-errors-rise 0
expect_rc 0
grep -q 'B kept every bound' "$OUT" || fail "compare_same: $(cat "$OUT")"
run_stampede compare_slow compare "$TEST_TMP/base.stampede" "$TEST_TMP/slow.stampede" --max-p50-regress 10% --output json
expect_rc 4
json_check "$OUT" <<'EOF'
g("passed") is False
[f for f in g("figures") if f["figure"] == "p50"][0]["passed"] is False
[f for f in g("figures") if f["figure"] == "p50"][0]["b"] >= 15 ## the slow run's median holds its 15 ms
[f for f in g("figures") if f["figure"] == "p50"][0]["change"] >= 100 ## 5 ms -> 15 ms
EOF

# What is not a saved run, or is a newer one, is a usage error naming the file.
run_stampede not_a_run report "$TEST_TMP/a.out"
expect_rc 2
grep -q "a.out: not a saved stampede run" "$ERR" || fail "not_a_run: $(cat "$ERR")"
sed 's/"version":1,/"version":99,/' "$TEST_TMP/a.stampede" >"$TEST_TMP/newer.stampede"
run_stampede newer compare "$TEST_TMP/newer.stampede" "$TEST_TMP/b.stampede"
expect_rc 2
grep -q "format version 99, newer" "$ERR" || fail "newer: $(cat "$ERR")"
run_stampede other_url report "$TEST_TMP/a.stampede" "$TEST_TMP/base.stampede"
expect_rc 2
grep -q "cannot merge" "$ERR" || fail "other_url: $(cat "$ERR")"
pass
