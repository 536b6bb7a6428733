#!/usr/bin/env bash
# Builds stampede and runs every test: format check, unit and integration tests (real nginx on
# loopback), then the same tests again under AddressSanitizer and UndefinedBehaviorSanitizer,
# and a bounded libFuzzer run on the curl-file parser (STAMPEDE_FUZZ_SECONDS, default 60).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test

echo "== format check"
git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run -Werror

echo "== build and test (warnings are errors)"
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTAMPEDE_WERROR=ON > /dev/null
cmake --build build-test
ctest --test-dir build-test --output-on-failure

echo "== build and test under ASan + UBSan"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTAMPEDE_WERROR=ON \
  -DSTAMPEDE_SANITIZE=ON > /dev/null
cmake --build build-asan
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure

echo "== fuzz the curl-file parser (libFuzzer, ASan + UBSan, bounded)"
scripts/fuzz.sh "${STAMPEDE_FUZZ_SECONDS:-60}"
