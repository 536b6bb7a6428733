#!/usr/bin/env bash
# `stampede serve --idle-timeout S`: with 1, silent HTTP/1.1 and h2c connections are closed about a
# second after their last exchange (or their connect); with 0, connections silent for 3 s still
# answer. Checked with raw python3 sockets, every wait bounded; serve's usage errors for the flag
# are in usage_errors_test.sh.
source "$(dirname "$0")/lib.sh" "$@"

SERVE_NAME=short start_serve --threads 1 --idle-timeout 1
SHORT_PID=$SERVE_PID SHORT_PORT=$SERVE_PORT
SERVE_NAME=never start_serve --threads 1 --idle-timeout 0
NEVER_PID=$SERVE_PID NEVER_PORT=$SERVE_PORT

# All the connections at once, one thread each, so the test takes the longest wait (3 s), not the
# sum. Each prints "NAME RESULT": for the short server the seconds from the connection's last
# exchange to the server's close ("open" if it was not closed within 5 s), for the other "answered"
# if a request sent after 3 s of silence got its answer.
timeout -k 2 20 "$PYTHON" - "$SHORT_PORT" "$NEVER_PORT" >"$TEST_TMP/idle.out" 2>"$TEST_TMP/idle.err" <<'EOF' ||
import socket, struct, sys, threading, time

SHORT, NEVER = int(sys.argv[1]), int(sys.argv[2])
REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
results = {}

def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.settimeout(5)
    return s

def h1_exchange(s):
    """Sends GET / and reads its whole answer; returns the status line."""
    s.sendall(REQUEST)
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096) or sys.exit("closed before the answer")
    head, body = data.split(b"\r\n\r\n", 1)
    length = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0])
    while len(body) < length:
        body += s.recv(4096) or sys.exit("closed in the body")
    return head.split(b"\r\n")[0].decode()

def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

def h2_exchange(s, stream):
    """GET / on `stream` (HPACK: :method GET, :scheme http, :path /, :authority literal); reads
    frames, ACKing the server's SETTINGS, until the answer's END_STREAM. Returns True."""
    s.sendall(frame(1, 0x5, stream, b"\x82\x86\x84\x41\x09127.0.0.1"))
    buffer = b""
    while True:
        while len(buffer) < 9 or len(buffer) < 9 + int.from_bytes(buffer[:3], "big"):
            buffer += s.recv(65536) or sys.exit("closed before the answer")
        length, kind, flags = int.from_bytes(buffer[:3], "big"), buffer[3], buffer[4]
        sid = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
        buffer = buffer[9 + length:]
        if kind == 4 and not flags & 1:
            s.sendall(frame(4, 1, 0))
        if sid == stream and kind in (0, 1) and flags & 1:
            return True

def h2_connect(port):
    s = connect(port)
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0))
    return s

def seconds_to_close(s, since):
    """Reads (and drops) what comes until the server closes; seconds since `since`, or "open"."""
    try:
        while s.recv(4096):
            pass
    except socket.timeout:
        return "open"
    except ConnectionResetError:
        pass
    return "%.2f" % (time.monotonic() - since)

def short_h1():
    s = connect(SHORT)
    h1_exchange(s)
    return seconds_to_close(s, time.monotonic())

def short_h1_silent():  # never sends a byte
    s = connect(SHORT)
    return seconds_to_close(s, time.monotonic())

def short_h2c():
    s = h2_connect(SHORT)
    h2_exchange(s, 1)
    return seconds_to_close(s, time.monotonic())

def never_h1():
    s = connect(NEVER)
    h1_exchange(s)
    time.sleep(3)
    return "answered" if h1_exchange(s).startswith("HTTP/1.1 200") else "refused"

def never_h2c():
    s = h2_connect(NEVER)
    h2_exchange(s, 1)
    time.sleep(3)
    return "answered" if h2_exchange(s, 3) else "refused"

def run(check):
    try:
        results[check.__name__] = check()
    except BaseException as error:  # sys.exit's message, or a socket's error: the check's result
        results[check.__name__] = "error:" + str(error).replace(" ", "_")

threads = [threading.Thread(target=run, args=(c,)) for c in (short_h1, short_h1_silent, short_h2c, never_h1, never_h2c)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for name, result in sorted(results.items()):
    print(name, result)
EOF
  fail "the python3 checks did not finish: $(head -c 1000 "$TEST_TMP/idle.err")"
cat "$TEST_TMP/idle.out" >&2

# result NAME: what the check NAME printed.
result() { sed -n "s/^$1 //p" "$TEST_TMP/idle.out"; }

# The sweep runs every 100 ms with a 1 s timeout: a close comes 1.0 to 1.1 s after the last
# exchange; the bounds leave room for a loaded machine, and still tell 1 s from "at once" or 60 s.
for name in short_h1 short_h1_silent short_h2c; do
  seconds=$(result "$name")
  [[ $seconds =~ ^[0-9]+\.[0-9]+$ ]] || fail "$name: expected the server to close the connection, got '$seconds'"
  awk -v s="$seconds" 'BEGIN { exit !(s >= 0.8 && s <= 3) }' ||
    fail "$name: closed $seconds s after the last exchange, expected about 1 s"
done
assert_eq answered "$(result never_h1)" "HTTP/1.1 after 3 s of silence with --idle-timeout 0"
assert_eq answered "$(result never_h2c)" "h2c after 3 s of silence with --idle-timeout 0"

kill -0 "$SHORT_PID" 2>/dev/null || fail "serve --idle-timeout 1 died: $(head -c 1000 "$TEST_TMP/short.err")"
kill -0 "$NEVER_PID" 2>/dev/null || fail "serve --idle-timeout 0 died: $(head -c 1000 "$TEST_TMP/never.err")"
pass
