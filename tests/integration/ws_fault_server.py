#!/usr/bin/env python3
"""A misbehaving WebSocket server for websocket_fault_test.sh: raw frames, one fault per path
(stdlib only; python3-websockets would not send frames this broken).

Usage: ws_fault_server.py PORT_FILE LOG_FILE [LIFETIME_SECONDS=120]
Binds 127.0.0.1 on a free port, writes the port to PORT_FILE once it listens, and appends one line
per message it reads to LOG_FILE: "<target> message". It exits by itself after LIFETIME_SECONDS,
or on SIGTERM. One thread per connection. Every path accepts the upgrade, then:
  /stall      never answers the upgrade (reads until the client leaves)
  /bigpush    pushes one text message of 3 MiB at once, then waits for the client to leave
and every other path reads one message, then:
  /huge       sends a text frame header declaring 2^62 bytes, then nothing (keeps the connection
              open until the client leaves)
  /closereset sends a close frame (1000), reads the client's close frame, then resets the
              connection (RST, SO_LINGER 0) where the client waits for its TCP close
  /close999   sends a close frame with code 999 (not a code RFC 6455 allows on the wire), then
              waits for the client to leave
  /closefin   sends a close frame (1001), then closes with FIN at once (no close handshake)
anything else: echoes the message (a text frame) and reads the next.
"""

import base64
import hashlib
import os
import signal
import socket
import struct
import sys
import threading

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
LOG_FD = -1


def read_exactly(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def read_head(conn):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(4096)
        if not chunk:
            raise ConnectionError("closed")
        head += chunk
    return head.decode("latin-1")


def read_message(conn):
    """One client frame's payload (unmasked); the client sends unfragmented frames."""
    first, second = read_exactly(conn, 2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", read_exactly(conn, 2))[0]
    elif length == 127:
        length = struct.unpack("!Q", read_exactly(conn, 8))[0]
    mask = read_exactly(conn, 4)
    payload = bytearray(read_exactly(conn, length))
    for i in range(length):
        payload[i] ^= mask[i % 4]
    return first & 0x0F, bytes(payload)


def frame(opcode, payload):
    if len(payload) < 126:
        return bytes([0x80 | opcode, len(payload)]) + payload
    if len(payload) < 65536:
        return bytes([0x80 | opcode, 126]) + struct.pack("!H", len(payload)) + payload
    return bytes([0x80 | opcode, 127]) + struct.pack("!Q", len(payload)) + payload


def wait_for_client_to_leave(conn):
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


def serve(conn):
    try:
        head = read_head(conn)
        target = head.split(" ", 2)[1]
        path = target.split("?", 1)[0]
        if path == "/stall":
            wait_for_client_to_leave(conn)
            return
        key = ""
        for line in head.split("\r\n"):
            if line.lower().startswith("sec-websocket-key:"):
                key = line.split(":", 1)[1].strip()
        accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
        conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + "\r\n\r\n").encode())
        if path == "/bigpush":
            conn.sendall(frame(1, b"x" * (3 << 20)))
            wait_for_client_to_leave(conn)
            return
        while True:
            opcode, payload = read_message(conn)
            if opcode == 8:  # the client's close
                conn.sendall(frame(8, payload[:2]))
                return
            os.write(LOG_FD, (target + " message\n").encode())
            if path == "/huge":
                conn.sendall(bytes([0x81, 127]) + struct.pack("!Q", 1 << 62))
                wait_for_client_to_leave(conn)
                return
            if path == "/closereset":
                conn.sendall(frame(8, struct.pack("!H", 1000)))
                read_message(conn)
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                return
            if path == "/close999":
                conn.sendall(frame(8, struct.pack("!H", 999)))
                wait_for_client_to_leave(conn)
                return
            if path == "/closefin":
                conn.sendall(frame(8, struct.pack("!H", 1001)))
                return
            conn.sendall(frame(opcode, payload))
    except (ConnectionError, OSError):
        pass
    finally:
        conn.close()


def main():
    global LOG_FD
    port_file, log_file = sys.argv[1], sys.argv[2]
    lifetime = float(sys.argv[3]) if len(sys.argv) > 3 else 120
    LOG_FD = os.open(log_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    signal.signal(signal.SIGALRM, lambda *_: os._exit(0))
    signal.setitimer(signal.ITIMER_REAL, lifetime)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
