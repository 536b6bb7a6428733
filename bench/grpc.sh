#!/usr/bin/env bash
# grpc.sh: unary gRPC calls per generator CPU-second, stampede against h2load, both driving the
# same server in the same run: `stampede serve`'s echo (/stampede.Echo/Echo, C++, one thread)
# and a Python grpcio Greeter (tests/integration/grpc_server.py, /helloworld.Greeter/SayHello).
#
# Why h2load: ghz (the usual gRPC load tool) is not in Debian; h2load sends a gRPC call as an
# HTTP/2 POST of the framed message (-d FILE, content-type application/grpc, te: trailers). It
# counts the HTTP status only (200), not grpc-status; stampede checks grpc-status 0. h2load
# reads the body from its file with one pread() a request; that is its cost, and it is counted.
# The same shape as h2_mux.sh's first goal: 100 calls in flight on 10 connections
# (`h2load -c 10 -m 10`, `stampede -c 100 -m 10`). Markdown on stdout, progress on stderr.
#
#   bash bench/grpc.sh                    # about 2 minutes (REPEATS=3, DURATION=5)
#   bash bench/grpc.sh --quick            # 1 s runs, 1 repeat: a smoke test
set -euo pipefail
source "$(dirname "$0")/lib.sh"

REPEATS=${REPEATS:-3} DURATION=${DURATION:-5}
[[ ${1:-} == --quick ]] && REPEATS=1 DURATION=1
STAMPEDE=${STAMPEDE:-$ROOT/build-release/stampede}
# shellcheck disable=SC2034  # lib.sh's timed caps each run at LIMIT seconds
LIMIT=$((DURATION + 30))
GREETER=$ROOT/tests/integration/grpc_server.py
require_tools "$STAMPEDE" h2load /usr/bin/python3 python3 /usr/bin/time timeout
bench_work stampede-grpc
COMMANDS=$WORK/commands
: >"$COMMANDS"
GREETER_PID=''
cleanup_more() { stop_pid "$GREETER_PID"; }

# The call: HelloRequest{name: "world"} (field 1, a 5-byte string) for both servers (the echo
# sends back whatever it gets), and the same bytes framed for h2load (flag 0, 4-byte length).
printf '\x0a\x05world' >"$WORK/msg.bin"
printf '\x00\x00\x00\x00\x07\x0a\x05world' >"$WORK/msg.frame"

start_serve --threads 1
/usr/bin/python3 "$GREETER" "$WORK/greeter.port" "$WORK/greeter.log" $((REPEATS * DURATION * 4 + 120)) \
    2>"$WORK/greeter.err" &
GREETER_PID=$!
for ((i = 0; i < 100; i++)); do [[ -s $WORK/greeter.port ]] && break; sleep 0.1; done
[[ -s $WORK/greeter.port ]] || { cat "$WORK/greeter.err" >&2; echo "grpc.sh: the Greeter did not start" >&2; exit 1; }
GREETER_PORT=$(cat "$WORK/greeter.port")

# run TOOL SERVER N: one timed run; prints "calls cpu_seconds failed".
run() {
    local tool=$1 server=$2 prefix=$WORK/$1-$2-$3 url calls failed
    case $server in
    echo) url=127.0.0.1:$PORT/stampede.Echo/Echo ;;
    greeter) url=127.0.0.1:$GREETER_PORT/helloworld.Greeter/SayHello ;;
    esac
    if [[ $tool == h2load ]]; then
        timed "$prefix" h2load -t1 -c 10 -m 10 -D "$DURATION" -d "$WORK/msg.frame" \
            -H 'content-type: application/grpc' -H 'te: trailers' "http://$url"
        # "requests: N total, ... F failed, E errored, T timeout"; "status codes: A 2xx, B 3xx, ..."
        read -r calls failed < <(awk '/^requests:/ { n = $2; bad += $10 + $12 + $14 }
            /^status codes:/ { bad += $5 + $7 + $9 } END { print n, bad }' "$prefix.out")
    else
        timed "$prefix" "$STAMPEDE" -c 100 -m 10 -cpuNumber 1 -n 0 -timeout "$DURATION" \
            --output json --data-file "$WORK/msg.bin" -u "grpc://$url"
        read -r calls failed < <(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(j["requests"]["total"], j["requests"]["failed"])' "$prefix.out")
    fi
    read -r user sys _ <"$prefix.time"
    echo "$calls $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $failed"
}

declare -A CALLS CPU
log "serve on $PORT, Greeter on $GREETER_PORT; DURATION=${DURATION}s REPEATS=$REPEATS; load $(load1)"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= REPEATS; r++)); do
    for server in echo greeter; do
        order=(h2load stampede)
        ((r % 2 == 0)) && order=(stampede h2load)
        for tool in "${order[@]}"; do
            log "repeat $r/$REPEATS: $server, $tool"
            read -r calls cpu failed < <(run "$tool" "$server" "$r")
            ((failed == 0)) || { echo "grpc.sh: $tool against $server: $failed failed calls" >&2; exit 1; }
            CALLS[$server,$tool]+="$calls " CPU[$server,$tool]+="$cpu "
        done
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
per_cpu() { # calls per CPU-second of each repeat, space-separated
    paste <(echo "${CALLS[$1]}" | tr ' ' '\n' | grep .) <(echo "${CPU[$1]}" | tr ' ' '\n' | grep .) |
        awk '{ printf "%d ", $1 / $2 }'
}

cat <<EOF
### Results ($(date -u '+%Y-%m-%d %H:%M UTC'), $(machine), $("$STAMPEDE" --version 2>/dev/null | head -1))

h2load $(h2load --version | awk '{ print $NF }' | head -1); serve one thread; the Greeter python3-grpcio
$(/usr/bin/python3 -c 'import grpc; print(grpc.__version__)'). Load average before: $LOAD_BEFORE; after:
$(cut -d' ' -f1-3 /proc/loadavg). Medians of $REPEATS run(s) of $DURATION s; 100 calls in flight on 10 connections.

| server | tool | calls | calls/s | CPU s | calls per CPU-s | ratio vs h2load | per repeat |
| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |
EOF
for server in echo greeter; do
    base=$(per_cpu "$server,h2load" | median)
    for tool in h2load stampede; do
        calls=$(echo "${CALLS[$server,$tool]}" | median)
        cpu=$(echo "${CPU[$server,$tool]}" | median)
        rate=$(per_cpu "$server,$tool" | median)
        ratios=$(paste <(per_cpu "$server,$tool" | tr ' ' '\n' | grep .) <(per_cpu "$server,h2load" | tr ' ' '\n' | grep .) |
            awk '{ printf "%s%.2f", (NR > 1 ? " / " : ""), $1 / $2 }')
        name=$([[ $server == echo ]] && echo 'serve echo' || echo 'grpcio Greeter')
        printf '| %s | %s | %s | %s | %s | %s | %.2f | %s |\n' "$name" "$tool" "$calls" \
            "$(awk -v c="$calls" -v d="$DURATION" 'BEGIN { printf "%d", c / d }')" "$cpu" "$rate" \
            "$(awk -v a="$rate" -v b="$base" 'BEGIN { print a / b }')" "$([[ $tool == h2load ]] || echo "$ratios")"
    done
done
echo
echo 'Commands (each under `/usr/bin/time`; ports chosen free per run):'
echo
echo '```'
sed "s|$WORK|\$WORK|g" "$COMMANDS"
echo '```'
