#!/usr/bin/env bash
# What a user's request copies cost (variables rendered, cookies added) and what captures taken
# from responses cost, in nanoseconds and heap allocations per request (bench/render_bench.cpp,
# 2,000,000 requests each, 200,000 captures each, one thread).
# Usage: bench/render.sh [BUILD_DIR]   (default build-bench, configured Release if missing)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../build-bench}
[[ -f $BUILD/CMakeCache.txt ]] || cmake -S "$HERE/.." -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" --target render_bench >/dev/null
"$BUILD/render_bench"
