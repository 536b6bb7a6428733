#!/usr/bin/python3
"""A WebSocket server for websocket_test.sh: one behaviour per path (Debian's python3-websockets 10.4).

Usage: ws_server.py PORT_FILE LOG_FILE [--tls CERT KEY] [LIFETIME_SECONDS=120]
Binds 127.0.0.1 on a free port (wss:// with --tls), writes the port to PORT_FILE once it listens,
and exits by itself after LIFETIME_SECONDS, or at once on SIGTERM. Runs under /usr/bin/python3:
Debian installs the websockets module for that interpreter only.

LOG_FILE gets one line per event, appended and unbuffered (the test reads it while we run).
TARGET is the request target as the client sent it, query included, so runs can be told apart
(/echo?run=x); the server dispatches on the path without the query.
  TARGET open CONN              a handshake succeeded; CONN numbers connections from 1
  TARGET cookie CONN VALUE      that handshake's Cookie header, when it had one
  TARGET text PAYLOAD           a text message was read; PAYLOAD is the text with "\\" written as
                                "\\\\", LF as "\\n" and CR as "\\r", so that one message is one line
  TARGET binary HEX             a binary message was read; HEX is its bytes in lower-case hex
  TARGET close CONN CODE        the connection ended; CODE is the close code the client sent (1000
                                normal, 1005 none given, 1006 the TCP connection ended without
                                a close frame)
  TARGET refuse STATUS          the handshake was refused with HTTP STATUS (403 or 404)
Only messages the handler read are logged: /close-after/K reads K, then closes, so a message that
arrives after that is never read nor logged.

Paths (no compression and no keepalive pings: every frame on the wire is one the test asked for):
  /echo            echoes each message, text as text, binary as binary
  /acc             go-stress-testing's shape: {"seq":S,"cmd":C,...} is answered with
                   {"seq":S,"cmd":C,"response":{"code":200,"codeMsg":"Success","data":null}};
                   a message that is not such an object gets code 400 and seq ""
  /wrongseq        /acc, but the answer's seq is S + "x"
  /badcode         /acc, but the answer's code is 500
  /close-after/K   echoes K messages, then closes with code 1000 (normal closure), or with
                   ?code=C's
  /silent          reads (and logs) messages, never answers
  /deaf            echoes the first message, then reads nothing for 5 s, so that pings (answered
                   by the library as it reads) go unanswered; then reads and logs, never answers
  /reject          refuses the handshake with 403
  /push?n=N&every=MS  right after the handshake sends N text messages {"i":k} (k = 0..N-1), the
                   first at once, then one every MS ms; then reads and logs messages, never answers
anything else: the handshake is refused with 404.
"""

import asyncio
import http
import itertools
import json
import os
import signal
import ssl
import sys
import urllib.parse

from websockets.exceptions import ConnectionClosed
from websockets.legacy.server import serve  # = websockets.serve in 10.4; 14+ keep it, deprecated

MAX_MESSAGE = 2 * 1024 * 1024  # the biggest message the tests send, with room to spare
LOG_FD = -1
CONNECTIONS = itertools.count(1)


def log(target, *fields):
    """One line per event; os.write on an O_APPEND descriptor: no buffer to flush, lines never mix."""
    os.write(LOG_FD, (" ".join([target, *map(str, fields)]) + "\n").encode())


def log_message(target, message):
    if isinstance(message, bytes):
        log(target, "binary", message.hex())
    else:
        log(target, "text", message.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r"))


def split(target):
    """("/close-after/3", {"n": "2"}) from "/close-after/3?n=2"."""
    url = urllib.parse.urlsplit(target)
    return url.path, dict(urllib.parse.parse_qsl(url.query))


def close_after_count(path):
    """K for /close-after/K, else None."""
    prefix, _, k = path.rpartition("/")
    return int(k) if prefix == "/close-after" and k.isdigit() else None


def acc_reply(message, seq_suffix="", code=200):
    """go-stress-testing's answer to {"seq":..,"cmd":..}; code 400 if the message is not that."""
    try:
        request = json.loads(message)
        seq, cmd = str(request["seq"]), request.get("cmd", "")
    except (ValueError, TypeError, KeyError):
        seq, cmd, code = "", "", 400
    response = {"code": code, "codeMsg": "Success" if code == 200 else "Error", "data": None}
    return json.dumps({"seq": seq + seq_suffix, "cmd": cmd, "response": response}, separators=(",", ":"))


async def serve_echo(ws, target, limit=None, code=1000):
    for _ in itertools.count() if limit is None else range(limit):
        message = await ws.recv()
        log_message(target, message)
        await ws.send(message)
    await ws.close(code)


async def serve_acc(ws, target, seq_suffix="", code=200):
    async for message in ws:
        log_message(target, message)
        await ws.send(acc_reply(message, seq_suffix, code))


async def serve_silent(ws, target):
    async for message in ws:
        log_message(target, message)


async def serve_deaf(ws, target):
    message = await ws.recv()
    log_message(target, message)
    await ws.send(message)
    ws.transport.pause_reading()
    await asyncio.sleep(5)
    ws.transport.resume_reading()
    await serve_silent(ws, target)


async def serve_push(ws, target, query):
    n, every = int(query.get("n", "1")), float(query.get("every", "0")) / 1000
    for k in range(n):
        if k:
            await asyncio.sleep(every)
        await ws.send(json.dumps({"i": k}, separators=(",", ":")))
    await serve_silent(ws, target)


async def handler(ws):
    target = ws.path
    path, query = split(target)
    conn = next(CONNECTIONS)
    log(target, "open", conn)
    if "Cookie" in ws.request_headers:
        log(target, "cookie", conn, ws.request_headers["Cookie"])
    try:
        if path == "/echo":
            await serve_echo(ws, target)
        elif path == "/acc":
            await serve_acc(ws, target)
        elif path == "/wrongseq":
            await serve_acc(ws, target, seq_suffix="x")
        elif path == "/badcode":
            await serve_acc(ws, target, code=500)
        elif path == "/silent":
            await serve_silent(ws, target)
        elif path == "/deaf":
            await serve_deaf(ws, target)
        elif path == "/push":
            await serve_push(ws, target, query)
        else:  # /close-after/K: process_request let nothing else through
            await serve_echo(ws, target, close_after_count(path), int(query.get("code", 1000)))
    except ConnectionClosed:
        pass  # the client left; its close code is logged below
    finally:
        await ws.wait_closed()
        log(target, "close", conn, ws.close_code)


async def process_request(target, headers):
    """Refuses /reject (403) and unknown paths (404) before the upgrade; None lets the handshake go on."""
    path, _ = split(target)
    if path in ("/echo", "/acc", "/wrongseq", "/badcode", "/silent", "/deaf", "/push") or close_after_count(path) is not None:
        return None
    status = http.HTTPStatus.FORBIDDEN if path == "/reject" else http.HTTPStatus.NOT_FOUND
    log(target, "refuse", status.value)
    return status, [("Content-Type", "text/plain")], (status.phrase + "\n").encode()


def parse_args(argv):
    """(port_file, log_file, (cert, key) or None, lifetime)."""
    args, tls = list(argv), None
    if "--tls" in args:
        i = args.index("--tls")
        tls = (args[i + 1], args[i + 2])
        del args[i : i + 3]
    if len(args) not in (2, 3):
        sys.exit("usage: ws_server.py PORT_FILE LOG_FILE [--tls CERT KEY] [LIFETIME_SECONDS=120]")
    return args[0], args[1], tls, float(args[2]) if len(args) == 3 else 120.0


async def main():
    global LOG_FD
    port_file, log_file, tls, lifetime = parse_args(sys.argv[1:])
    LOG_FD = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    context = None
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, os._exit, 0)
    server = await serve(
        handler,
        "127.0.0.1",
        0,
        ssl=context,
        process_request=process_request,
        compression=None,  # frames as sent, and no deflate code path the test did not ask for
        ping_interval=None,  # no keepalive pings: the client sees only the frames a path sends
        max_size=MAX_MESSAGE,
    )
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.sockets[0].getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)  # the reader never sees a half-written port
    await asyncio.sleep(lifetime)
    os._exit(0)  # without waiting for connections a client left open


if __name__ == "__main__":
    asyncio.run(main())
