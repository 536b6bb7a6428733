# Shared by the bench/ scripts: the work directory and its cleanup, free ports, the page and the
# certificate, nginx, `stampede serve`, runs under /usr/bin/time and the commands they print.
# shellcheck shell=bash
#
# Use from a script:   source "$(dirname "$0")/lib.sh"
#                      bench_work stampede-NAME            (WORK, and the traps that clean it)
# The script's name (without .sh) tags its progress lines and its messages. Everything a script
# starts through these helpers (nginx, serve, the run in progress) is stopped on exit; a script
# that starts more defines cleanup_more, called first. KEEP=1 keeps WORK.

BENCH=$(basename "$0" .sh)
# shellcheck disable=SC2034  # the repository's root, for the scripts
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NGINX_PID='' SERVER_PID='' CHILD=''
PINNED=()                # a prefix for timed's command (compare.sh's PIN=1: taskset)
TIME_FORMAT='%U %S %M'   # /usr/bin/time's, for timed: CPU user, system, max RSS

# log MESSAGE: a progress line on stderr.
log() { echo "[$BENCH] $*" >&2; }

# require_tools TOOL...: exits 1 naming the first one missing (and INSTALL_HINT, if set).
require_tools() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$BENCH.sh: missing $tool${INSTALL_HINT:+ ($INSTALL_HINT)}" >&2; exit 1; }
    done
}

# stop_pid PID: TERM it and reap it; nothing for an empty PID or one already gone.
stop_pid() {
    [[ -n $1 ]] || return 0
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

cleanup() {
    stop_pid "$CHILD"
    if declare -F cleanup_more >/dev/null; then cleanup_more; fi
    stop_pid "$SERVER_PID"
    stop_pid "$NGINX_PID"
    if [[ ${KEEP:-} == 1 ]]; then echo "$BENCH.sh: raw outputs kept in $WORK" >&2; else rm -rf "$WORK"; fi
}

# bench_work PREFIX: a new WORK directory (PREFIX.XXXXXX in the temporary directory), removed on
# exit with all that was started; Ctrl-C and TERM exit (130) through the same cleanup.
bench_work() {
    WORK=$(mktemp -d -t "$1.XXXXXX")
    trap cleanup EXIT
    trap 'exit 130' INT TERM
}

# free_ports N: N free loopback ports, asked of the kernel while all the sockets are open so they
# differ.
free_ports() {
    python3 -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))' "$1"
}

# make_files: the 612-byte page ($WORK/www/index.html) and a self-signed certificate
# ($WORK/cert.pem, key.pem), and $WORK/tmp for nginx.
make_files() {
    mkdir -p "$WORK/www" "$WORK/tmp"
    chmod 755 "$WORK" "$WORK/www" # when run as root, the worker runs as nobody and must read the page
    python3 -c 'import sys
head, tail = "<!DOCTYPE html>\n<html><head><title>stampede bench</title></head><body>\n", "\n</body></html>\n"
open(sys.argv[1], "w").write(head + "x" * (612 - len(head) - len(tail)) + tail)' "$WORK/www/index.html"
    chmod 644 "$WORK/www/index.html"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
        -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
}

# h2_tls_server PORT: an nginx server block for HTTP/2 over TLS on PORT, held to TLS 1.2.
h2_tls_server() {
    cat <<EOF
    server {
        # h2load 1.52 stops at TLS 1.2 (AES-128-GCM), where stampede and wrk take TLS 1.3
        # (AES-256-GCM): one protocol and cipher for every tool, or nginx does more work for one.
        listen 127.0.0.1:$1 ssl http2;
        ssl_protocols TLSv1.2;
        ssl_ciphers ECDHE-RSA-AES128-GCM-SHA256;
        ssl_certificate $WORK/cert.pem;
        ssl_certificate_key $WORK/key.pem;
    }
EOF
}

# start_nginx MAIN HTTP PORT... <<<SERVERS: nginx as in the reference measurements (make_files
# first): 1 worker, no access log, keepalive_requests and keepalive_timeout that never close a
# connection on us (keepalive_requests also bounds an HTTP/2 connection's streams since nginx
# 1.19.7), the page as root; MAIN goes in the main context (worker_cpu_affinity), HTTP in the
# http one, the server blocks come on stdin. Everything it writes stays in $WORK. Returns once
# every PORT accepts; exits 1 with its error log if they do not within 5 s.
start_nginx() {
    local main=$1 http=$2 servers i port
    shift 2
    servers=$(cat)
    cat >"$WORK/nginx.conf" <<EOF
worker_processes 1;
$main
worker_rlimit_nofile 20000;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
events { worker_connections 12000; }
http {
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 65;
    $http
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    default_type text/html;
    root $WORK/www;
$servers
}
EOF
    nginx -p "$WORK" -c "$WORK/nginx.conf" -e "$WORK/error.log" &
    NGINX_PID=$!
    for ((i = 0; i < 50; i++)); do
        for port in "$@"; do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { sleep 0.1; continue 2; }; done
        return 0
    done
    cat "$WORK/error.log" >&2; echo "$BENCH.sh: nginx did not start" >&2; exit 1
}

# start_serve ARGS...: `stampede serve --port 0 ARGS...` in the background; sets SERVER_PID and
# PORT, read from its banner's first line; exits 1 if it does not come within 10 s.
start_serve() {
    "$STAMPEDE" serve --port 0 "$@" >"$WORK/serve.out" 2>"$WORK/serve.err" &
    SERVER_PID=$!
    local i
    for ((i = 0; i < 100; i++)); do
        PORT=$(sed -n 's|^stampede serve: listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$WORK/serve.out")
        [[ -z $PORT ]] || return 0
        sleep 0.1
    done
    cat "$WORK/serve.err" >&2; echo "$BENCH.sh: stampede serve did not start" >&2; exit 1
}

# quote_cmd CMD...: CMD shell-quoted on one line, $WORK written as such.
quote_cmd() {
    local a line=
    for a in "$@"; do [[ $a =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]] || a="'$a'"; line+="$a "; done
    line=${line//$WORK/\$WORK}
    echo "${line% }"
}

# note_line LINE: LINE into $COMMANDS (the "Commands" section), once.
note_line() { grep -qxF -- "$1" "$COMMANDS" || echo "$1" >>"$COMMANDS"; }

# note_cmd CMD...: CMD as the "Commands" section shows it; a script that rewrites more of the
# line (paths, run numbers) defines its own after this file, from quote_cmd and note_line.
note_cmd() { note_line "$(quote_cmd "$@")"; }

# timed PREFIX CMD...: CMD (after the PINNED prefix) under /usr/bin/time -f "$TIME_FORMAT" into
# PREFIX.time and a hard cap of LIMIT seconds, its output in PREFIX.out and .err; exits 1 if it
# fails. It runs in the background and we wait, so that Ctrl-C reaches our trap at once and
# cleanup stops it.
timed() {
    local prefix=$1 rc=0; shift
    note_cmd "$@"
    timeout -k 5 "$LIMIT" /usr/bin/time -o "$prefix.time" -f "$TIME_FORMAT" "${PINNED[@]}" "$@" >"$prefix.out" 2>"$prefix.err" &
    CHILD=$!
    wait "$CHILD" || rc=$?
    CHILD=
    ((rc == 0)) || { echo "$BENCH.sh: failed ($rc): $*" >&2; tail -5 "$prefix.err" >&2; exit 1; }
}

# load1: the 1-minute load average.
load1() { cut -d' ' -f1 /proc/loadavg; }

# machine: "N cores, CPU model, Linux RELEASE", for a results heading.
machine() {
    local cpu_model
    cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
    echo "$(nproc) cores, ${cpu_model:-unknown CPU}, Linux $(uname -r)"
}
