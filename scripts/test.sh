#!/usr/bin/env bash
# Builds stampede and runs every test: format check, unit and integration tests (real servers on
# loopback) side by side, then the unit tests and every script that runs stampede's C++ under load
# and faults again under AddressSanitizer and UndefinedBehaviorSanitizer, a bounded libFuzzer
# run on the curl-file and HAR parsers (STAMPEDE_FUZZ_SECONDS, default 60), and last, alone, the
# scripts that time the run against the wall clock.
# What can overlap does: the tests' packages install while the release tree builds, and the
# sanitized tree and the fuzzer build at the lowest priority beside both, taking the CPU they leave
# idle. Prints each stage's time as it ends and all of them at the end (docs/testing.md).
#   STAMPEDE_TEST_JOBS   tests ctest runs at once (default 3: most scripts wait on their servers)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${STAMPEDE_TEST_JOBS:-3}
began=$SECONDS
times=()
background=() # process groups started beside the stages, stopped if one fails

# stage NAME COMMAND...: runs COMMAND as one stage, printing its time and keeping it for the end.
stage() {
  local name=$1 t0=$SECONDS rc=0
  shift
  echo "== $name"
  "$@" || rc=$?
  times+=("$(printf '%-52s %5d s%s' "$name" $((SECONDS - t0)) "$( ((rc == 0)) || echo "  FAILED (exit $rc)")")")
  echo "== $name: $((SECONDS - t0)) s$( ((rc == 0)) || echo ", FAILED (exit $rc)")"
  return "$rc"
}

summary() {
  local pid
  for pid in ${background[@]+"${background[@]}"}; do kill -- "-$pid" 2>/dev/null || true; done
  echo "== stage times (wall clock; the background ones overlap the others)"
  printf '%s\n' "${times[@]}"
  printf '%-52s %5d s\n' "all" $((SECONDS - began))
}
trap summary EXIT

# beside NAME LOG COMMAND...: starts COMMAND at the lowest priority in a session of its own (so
# that summary can stop all of it), output to LOG; sets BESIDE to its pid, which `finish` waits
# for. A new session is a new scheduling autogroup, which competes with ours as an equal whatever
# its processes' nice: the group itself is niced too, where the kernel has autogroups.
declare -A started
beside() {
  local name=$1 log=$2
  shift 2
  mkdir -p "$(dirname "$log")"
  setsid bash -c '{ echo 19 >/proc/self/autogroup; } 2>/dev/null; exec nice -n 19 "$@"' beside "$@" >"$log" 2>&1 &
  BESIDE=$!
  background+=("$BESIDE")
  started[$BESIDE]=$SECONDS
  echo "== $name: started beside the stages (log: $log)"
}

# finish NAME PID LOG: a stage that waits for a command started by `beside` and shows the end of
# its log if it failed.
finish() {
  local name=$1 pid=$2 log=$3
  stage "$name (started $((SECONDS - started[$pid])) s ago)" wait "$pid" || {
    tail -n 60 "$log"
    return 1
  }
}

# build DIR JOBS CMAKE_ARGS...: configures a Ninja tree (through ccache when it is installed and
# its cache exists, as on a developer's machine; a clean CI machine has none) and builds it.
build() {
  local dir=$1 jobs=$2 launcher=()
  shift 2
  if command -v ccache >/dev/null && [[ -d $(ccache -k cache_dir 2>/dev/null) ]]; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$dir" -G Ninja -DSTAMPEDE_WERROR=ON "${launcher[@]}" "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}
export -f build

stage "dependencies to build" scripts/install-deps.sh
beside "dependencies to test" build-logs/install-test.log scripts/install-deps.sh --test
install_pid=$BESIDE
# ASan + UBSan at -O0, not the -O1 ASan advises: GCC 12 compiles this code twice as slowly at -O1
# with the sanitizers, more than the faster tests win back (docs/testing.md). In unity batches of
# 16, not 8: at -O0 a unit's time is mostly its headers' parsing, and this build is the pipeline's
# longest path.
beside "sanitized build (ASan + UBSan)" build-logs/sanitized-build.log \
  bash -c 'build build-asan 2 -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1" -DSTAMPEDE_SANITIZE=ON -DSTAMPEDE_UNITY_BATCH=16'
sanitized_pid=$BESIDE

stage "format check" bash -c "git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run -Werror"
stage "unity build names" python3 scripts/unity_names.py .
# -g1: line tables for backtraces, in 70% of -g's compile time.
stage "release build (warnings are errors)" \
  build build-test 4 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
finish "dependencies to test" "$install_pid" build-logs/install-test.log
beside "fuzzer" build-logs/fuzz.log scripts/fuzz.sh "${STAMPEDE_FUZZ_SECONDS:-60}"
fuzz_pid=$BESIDE

# The timing scripts wait for the end, when nothing runs beside them (below).
stage "release tests: unit and integration (ctest -j $jobs)" \
  ctest --test-dir build-test --output-on-failure -j "$jobs" -LE 'unit_shards|timing'
finish "sanitized build (ASan + UBSan)" "$sanitized_pid" build-logs/sanitized-build.log
# The timing scripts measure the wall clock, which a sanitized -O0 binary does not keep, and run
# alone; their C++ runs sanitized in other scripts (docs/testing.md).
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  stage "sanitized tests: unit and -LE nobinary|timing (ctest -j $jobs)" \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE '^unit$|nobinary|timing'
finish "fuzzer (libFuzzer on the curl and HAR parsers)" "$fuzz_pid" build-logs/fuzz.log
grep -E "^stat::number_of_executed_units|^Done" build-logs/fuzz.log || true
# Rates, start skews and latencies against the wall clock, one script at a time and last, with
# no build beside them: the sanitized build's links stalled them for 100 ms.
stage "release timing tests, alone (ctest -L timing)" \
  ctest --test-dir build-test --output-on-failure -L timing
