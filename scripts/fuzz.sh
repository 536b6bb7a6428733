#!/usr/bin/env bash
# Fuzzes the curl-file and HAR parsers with libFuzzer (clang++, ASan + UBSan) for a bounded time,
# starting from tests/curl/samples and a small HAR. Any crash, hang (10 s per input), sanitizer report or escaping exception fails.
# Usage: scripts/fuzz.sh [SECONDS=60]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is not installed (apt-get install clang)" >&2; exit 1; }

out=build-fuzz
mkdir -p "$out/corpus"
cp tests/curl/samples/*.curl.txt "$out/corpus/"
# A HAR of two entries (the samples in tests/integration/har are longer than -max_len).
cat >"$out/corpus/seed.har" <<'EOF'
{"log":{"entries":[{"startedDateTime":"2026-12-02T13:05:23.827Z","time":40.2,"_resourceType":"fetch",
"request":{"method":"POST","url":"http://127.0.0.1:8080/api/login","httpVersion":"HTTP/1.1",
"headers":[{"name":"Content-Type","value":"application/json"},{"name":"Cookie","value":"theme=dark"},
{"name":":authority","value":"h"}],"postData":{"mimeType":"application/json","text":"{}"}},
"response":{"status":200,"headers":[{"name":"Set-Cookie","value":"sid=1; Path=/"}],
"cookies":[{"name":"sid","value":"1"}],"content":{"mimeType":"application/json"}}},
{"startedDateTime":"2026-12-02T14:05:24.269+01:00","time":5,"request":{"method":"PUT",
"url":"http://127.0.0.1:8080/a.png?x=1","headers":[{"name":"Cookie","value":"sid=1; a=b"}],
"postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"q","value":"a b"}]}},
"response":{"content":{"mimeType":"image/png"}}}]}}
EOF
# A dictionary of every curl option and the shells' quoting tokens steers the fuzzer past them.
{
  sed -nE 's/.*OptionSpec\{"([^"]+)".*/"--\1"/p' curl/option_table.cpp
  printf '%s\n' '"$\x27"' '"^\x22"' '"\x5c\x0a"' '"^\x0a"' '"\x5c\x22"' '"@"' '"<"' '";type="' \
    '";filename="' '"http://"' '"curl "' '"curl.exe "' '"_resourceType"' '"startedDateTime"' \
    '"postData"' '"params"' '"mimeType"' '"Set-Cookie"' '"cookies"' '"httpVersion"'
} >"$out/curl.dict"
echo "== building the curl parser fuzzer"
clang++ -std=c++20 -O1 -g -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -DBOOST_URL_NO_LIB curl/*.cpp tests/curl/fuzz/parse_fuzz.cpp -lboost_url -o "$out/parse_fuzz"
echo "== fuzzing curl::parse_text and parse_har_text for ${seconds}s"
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/parse_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=4096 -dict="$out/curl.dict" -print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" 2>"$out/fuzz.log" || {
  tail -n 40 "$out/fuzz.log" >&2
  echo "fuzz.sh: the fuzzer found a problem; the input is in $out/ (crash-*, timeout-*, ...)" >&2
  exit 1
}
grep -E "^stat::number_of_executed_units|^Done" "$out/fuzz.log" || true
