#!/usr/bin/env python3
"""A misbehaving HTTP/2 (h2c) server for http2_fault_test.sh: one fault per port (stdlib only).

Usage: h2_fault_server.py PORTS_FILE LOG_FILE [LIFETIME_SECONDS=90] [CERT KEY]
With CERT and KEY it speaks TLS (h2 by ALPN) on every port, each fault as below; it closes without
close_notify (a FIN or RST under the TLS stream), as a server that dies mid-stream does.
Listens on 127.0.0.1, one free port per fault below, writes "fault port" lines to PORTS_FILE once
all listen, and appends a line "<fault>" to LOG_FILE for each request (a HEADERS frame) it reads,
and "<fault> ping" for each PING (not an ACK). It exits by itself after LIFETIME_SECONDS, or on
SIGTERM. One thread per connection. PINGs are answered (ACK), except on no_ping_ack.

Frames are written by hand: the HPACK blocks are static-table entries (":status: 200" is the one
byte 0x88), so no HTTP/2 library is needed. What each port does once it read a request:
  ok          HEADERS 200 and DATA "ok\\n": a valid response; the connection stays open
  rst_stream  RST_STREAM INTERNAL_ERROR on the request's stream
  goaway      GOAWAY PROTOCOL_ERROR, last stream 0 (the request was not processed)
  reset       closes with RST (SO_LINGER 0) without answering
  short_body  HEADERS with content-length 100, 10 DATA bytes, then FIN
  bad_frame   a frame header announcing 16 MiB (over the 16 KiB the client allows)
  stall       HEADERS 200 without END_STREAM
  silent      no answer at all; it goes on reading, and logs "silent rst_stream <code>" for each
              RST_STREAM and "silent goaway <code>" for each GOAWAY it reads (a client giving up)
  no_ping_ack as ok, and it never answers a PING (a held connection's keep-alive is lost)
  goaway_idle as ok; once the connection was idle IDLE_SECONDS, GOAWAY NO_ERROR (last stream: the
              last request's), then it waits for the client to close
  close_idle  as ok; once the connection was idle IDLE_SECONDS, it closes (FIN)
  ping_idle   as ok; once the connection was idle IDLE_SECONDS, new SETTINGS and a PING; it logs
              "ping_idle settings ack" and "ping_idle ack" for their ACKs (within 2 s), then
              GOAWAY NO_ERROR and it waits for the client to close
After goaway, bad_frame and stall the server waits for the client to close: closing first would
race the client's last writes, and its kernel's RST could reach the client before the frame.
"""

import os
import signal
import socket
import ssl
import struct
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY = 0, 1, 3, 4, 6, 7
IDLE_SECONDS = 0.5
ANSWERED_AS_OK = ("ok", "no_ping_ack", "goaway_idle", "close_idle", "ping_idle")
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
STATUS_200 = b"\x88"
CONTENT_LENGTH_100 = b"\x5c\x03100"  # literal with incremental indexing, static name 28


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + struct.pack(">BBI", kind, flags, stream) + payload


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def read_frame(sock):
    head = read_exact(sock, 9)
    if head is None:
        return None
    length = struct.unpack(">I", b"\0" + head[:3])[0]
    kind, flags, stream = struct.unpack(">BBI", head[3:])
    payload = read_exact(sock, length)
    return None if payload is None else (kind, flags, stream & 0x7FFFFFFF, payload)


def answer(sock, fault, stream):
    """Acts out `fault` for the request on `stream`; True when the connection goes on."""
    if fault in ANSWERED_AS_OK:
        sock.sendall(frame(HEADERS, END_HEADERS, stream, STATUS_200) +
                     frame(DATA, END_STREAM, stream, b"ok\n"))
        return True
    if fault == "rst_stream":
        sock.sendall(frame(RST_STREAM, 0, stream, struct.pack(">I", 2)))
        return True
    if fault == "silent":
        return True
    if fault == "reset":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    elif fault == "short_body":
        sock.sendall(frame(HEADERS, END_HEADERS, stream, STATUS_200 + CONTENT_LENGTH_100) +
                     frame(DATA, 0, stream, b"0123456789"))
    else:
        sock.sendall({"goaway": frame(GOAWAY, 0, 0, struct.pack(">II", 0, 1)),
                      "bad_frame": b"\xff\xff\xff" + struct.pack(">BBI", DATA, 0, stream),
                      "stall": frame(HEADERS, END_HEADERS, stream, STATUS_200)}[fault])
        while sock.recv(65536):  # until the client closes
            pass
    return False


def ask_idle(sock, fault, log_fd):
    """ping_idle: SETTINGS and a PING on the idle connection, each ACK logged as it comes."""
    sock.settimeout(2)
    sock.sendall(frame(SETTINGS, 0, 0, struct.pack(">HI", 3, 50)) +  # MAX_CONCURRENT_STREAMS
                 frame(PING, 0, 0, b"stampede"))
    acks = 0
    while acks < 2:
        got = read_frame(sock)
        if got is None:
            return
        kind, flags, _, payload = got
        if kind == SETTINGS and flags & ACK:
            os.write(log_fd, (fault + " settings ack\n").encode())
            acks += 1
        elif kind == PING and flags & ACK and payload == b"stampede":
            os.write(log_fd, (fault + " ack\n").encode())
            acks += 1


def end_idle(sock, fault, last_stream, log_fd):
    """goaway_idle, close_idle and ping_idle, once the connection has been idle."""
    if fault == "ping_idle":
        try:
            ask_idle(sock, fault, log_fd)
        except OSError:
            return
    if fault in ("goaway_idle", "ping_idle"):
        sock.settimeout(10)
        sock.sendall(frame(GOAWAY, 0, 0, struct.pack(">II", last_stream, 0)))
        try:
            while sock.recv(65536):  # until the client closes
                pass
        except OSError:
            pass


def serve(sock, fault, log_fd):
    with sock:
        if read_exact(sock, len(PREFACE)) != PREFACE:
            return
        sock.sendall(frame(SETTINGS, 0, 0))
        last_stream = 0
        while True:
            try:
                got = read_frame(sock)
            except socket.timeout:  # idle since the last frame: only the *_idle faults wait so
                return end_idle(sock, fault, last_stream, log_fd)
            if got is None:
                return
            kind, flags, stream, payload = got
            if kind == SETTINGS and not flags & ACK:
                sock.sendall(frame(SETTINGS, ACK, 0))
            elif kind == PING and not flags & ACK:
                os.write(log_fd, (fault + " ping\n").encode())
                if fault != "no_ping_ack":
                    sock.sendall(frame(PING, ACK, 0, payload))
            elif kind in (RST_STREAM, GOAWAY) and fault == "silent":
                code = struct.unpack(">I", payload[-4:] if kind == RST_STREAM else payload[4:8])[0]
                name = "rst_stream" if kind == RST_STREAM else "goaway"
                os.write(log_fd, ("%s %s %d\n" % (fault, name, code)).encode())
            elif kind == HEADERS:
                os.write(log_fd, (fault + "\n").encode())
                if not answer(sock, fault, stream):
                    return
                last_stream = stream
                if fault.endswith("_idle"):
                    sock.settimeout(IDLE_SECONDS)


def serve_tls(conn, fault, log_fd, tls):
    """serve() once the TLS handshake is done; a handshake that fails (a client that gave up)
    ends the connection."""
    try:
        conn = tls.wrap_socket(conn, server_side=True)
    except (OSError, ssl.SSLError):
        conn.close()
        return
    serve(conn, fault, log_fd)


def listen(fault, log_fd, tls):
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(128)

    def accept_loop():
        while True:
            conn, _ = server.accept()
            if tls is None:
                target, args = serve, (conn, fault, log_fd)
            else:
                target, args = serve_tls, (conn, fault, log_fd, tls)
            threading.Thread(target=target, args=args, daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    return server.getsockname()[1]


def main():
    ports_file, log_file = sys.argv[1], sys.argv[2]
    lifetime = float(sys.argv[3]) if len(sys.argv) > 3 else 90
    tls = None
    if len(sys.argv) > 5:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(sys.argv[4], sys.argv[5])
        tls.set_alpn_protocols(["h2"])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    log_fd = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    faults = ["ok", "rst_stream", "goaway", "reset", "short_body", "bad_frame", "stall",
              "silent", "no_ping_ack", "goaway_idle", "close_idle", "ping_idle"]
    lines = "".join("%s %d\n" % (fault, listen(fault, log_fd, tls)) for fault in faults)
    with open(ports_file + ".tmp", "w") as f:
        f.write(lines)
    os.rename(ports_file + ".tmp", ports_file)
    time.sleep(lifetime)


if __name__ == "__main__":
    main()
