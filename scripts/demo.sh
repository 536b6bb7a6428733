#!/usr/bin/env bash
# Builds stampede and runs a real load test against its own built-in target server.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTAMPEDE_TESTS=OFF > /dev/null
cmake --build build --target stampede

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
build/stampede serve --port "$port" --threads 1 > /dev/null &
server=$!
trap 'kill $server 2> /dev/null; wait $server 2> /dev/null || true' EXIT
for _ in $(seq 50); do (echo > "/dev/tcp/127.0.0.1/$port") 2> /dev/null && break; sleep 0.1; done

echo "stampede -c 50 -n 2000 -k -u http://127.0.0.1:$port/"
build/stampede -c 50 -n 2000 -k -u "http://127.0.0.1:$port/"
