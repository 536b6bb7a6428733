# A Server-Sent Events server for the integration tests: a real SSE server that is not ours (stdlib only).
"""A Server-Sent Events (text/event-stream) server on http.server's ThreadingHTTPServer.

Usage: sse_server.py PORT_FILE LOG_FILE [LIFETIME_SECONDS=120] [--port N]
   or: sse_server.py --port N --log LOG_FILE [--lifetime SECONDS]
Binds 127.0.0.1 on port N (0, the default: a free one). With PORT_FILE (lib.sh's start_py_server)
it writes the port there once it listens, as fault_server.py and ws_server.py do; without, it
prints "listening on http://127.0.0.1:PORT/" on stdout once it listens, as `stampede serve` does.
It exits by itself after LIFETIME_SECONDS (0: never), or at once on SIGTERM or SIGINT. One thread
per connection; a few hundred streams at once are fine.

GET /sse?events=N&interval=MS&size=B&retry=MS&eol=lf|crlf|cr&close=1 (every parameter optional):
  200, Content-Type: text/event-stream, Cache-Control: no-cache, Transfer-Encoding: chunked (one
  chunk for the opening and one per event, each sent as it is written), then the 0 chunk, and the
  connection is kept for another request. With close=1 (or a request of HTTP/1.0): no chunking,
  "Connection: close", and the body ends when the server closes the socket (the status line still
  says HTTP/1.1). The stream, every line ending in EOL (lf, the default, crlf or cr):
    ": hello", then "retry: MS" when retry is given, then an empty line;
    events I = 1..N (N 10 by default): "id: I", "event: tick", "data: {"seq":I}", an empty line.
  size=B larger than the data's length pads the data to exactly B bytes with a "pad" field of
  'x' ({"seq":I,"pad":"xx..."}), or, when B is too small to hold that field, with spaces before
  the closing brace ({"seq":I   }). Event 1 goes out at once, event I at start + (I-1)*INTERVAL
  (100 ms by default), on that absolute schedule: a late event does not delay the next ones.
  A Last-Event-ID: K header resumes at event K+1, which goes out at once (K >= N: no events);
  skip=S makes it resume at K+1+S instead (S events lost to each reconnect). per_stream=P ends
  each response after P events (a client resumes with Last-Event-ID for the rest).
  A parameter that is not a number, or an unknown eol: 400. Anything else (another path or
  method): 404 with Content-Length, keep-alive.

LOG_FILE gets one line per stream event, written at once (os.write on an O_APPEND descriptor,
under a lock), before the bytes it records go out, so that a client that saw them finds the line:
  OPEN S last-event-id=K    stream S (numbered from 1) starts; K is "-" without the header,
                            "invalid" when it is not a number (the stream then starts at 1)
  EVENT S I MS              event I is written, MS milliseconds (3 decimals, monotonic clock)
                            after the stream started
  END S sent=C              all C events were sent; the stream ends
  GONE S sent=C             the client left mid-stream after C events: its socket read EOF or a
                            reset while the server waited for the next event, or a write failed
While it waits for the next event the server watches the socket, so GONE is logged as soon as the
client closes its connection, not at the next event's time (a client that half-closes its side
counts as gone). A client leaving never prints a traceback; the others' streams go on.
"""

import argparse
import http.server
import itertools
import os
import select
import signal
import socket
import sys
import threading
import time
import urllib.parse

EOLS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}
DEFAULTS = {"events": 10, "interval": 100}
LOG_LOCK = threading.Lock()
LOG_FD = -1
STREAMS = itertools.count(1)
DISCONNECTS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


def log(*fields):
    line = (" ".join(str(f) for f in fields) + "\n").encode()
    with LOG_LOCK:
        os.write(LOG_FD, line)


def data_of(seq, size):
    """{"seq":SEQ}, padded to SIZE bytes when SIZE is larger (see the module's docstring)."""
    data = '{"seq":%d}' % seq
    if size <= len(data):
        return data
    head = data[:-1]
    room = size - len(head) - len(',"pad":""}')
    if room >= 0:
        return head + ',"pad":"' + "x" * room + '"}'
    return head + " " * (size - len(data)) + "}"


class ClientGone(Exception):
    pass


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "sse_server.py"
    disable_nagle_algorithm = True  # an event's chunk goes out at once, not after the last ACK

    def log_message(self, *args):
        pass  # no per-request lines on stderr

    def version_string(self):
        return self.server_version

    # Every method: /sse for GET, 404 for the rest.
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/sse":
            return self.not_found()
        try:
            params = self.parse_params(url.query)
        except ValueError as e:
            return self.simple(400, "Bad Request", "%s\n" % e)
        self.stream(**params)

    def do_other(self):
        length = self.headers.get("Content-Length")
        if length and length.isdigit():
            self.rfile.read(int(length))  # keep the connection in step for the next request
        elif self.headers.get("Transfer-Encoding"):
            self.close_connection = True  # a chunked body we do not read: no next request
        self.not_found()

    do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_other

    def not_found(self):
        self.simple(404, "Not Found", "not found\n")

    def simple(self, code, reason, text):
        body = b"" if self.command == "HEAD" else text.encode()
        try:
            self.send_response(code, reason)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(text.encode())))
            self.end_headers()
            self.wfile.write(body)
        except DISCONNECTS:
            self.close_connection = True

    @staticmethod
    def parse_params(query):
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(query, keep_blank_values=True).items()}

        def number(name, default):
            text = q.get(name, "")
            if text == "":
                return default
            if not (text.isascii() and text.isdigit()):
                raise ValueError("%s=%s: not a whole number" % (name, text))
            return int(text)

        eol = q.get("eol", "lf") or "lf"
        if eol not in EOLS:
            raise ValueError("eol=%s: not one of lf, crlf, cr" % eol)
        return {
            "events": number("events", DEFAULTS["events"]),
            "interval": number("interval", DEFAULTS["interval"]),
            "size": number("size", 0),
            "retry": number("retry", None),
            "eol": EOLS[eol],
            "close": q.get("close", "") not in ("", "0"),
            "per_stream": number("per_stream", None),
            "skip": number("skip", 0),
        }

    def stream(self, events, interval, size, retry, eol, close, per_stream, skip):
        number = next(STREAMS)
        start = time.monotonic()
        header = self.headers.get("Last-Event-ID")
        first, shown = 1, "-"
        if header is not None:
            header = header.strip()
            if header.isascii() and header.isdigit():
                first, shown = int(header) + 1 + skip, int(header)
            else:
                shown = "invalid"
        log("OPEN", number, "last-event-id=%s" % shown)
        close = close or self.request_version != "HTTP/1.1"  # HTTP/1.0 knows no chunks
        self.chunked = not close
        self.peer_sent_data = False
        sent = 0
        try:
            self.send_response(200, "OK")
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            if close:
                self.send_header("Connection", "close")  # also sets self.close_connection
            else:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            opening = ": hello" + eol + ("retry: %d%s" % (retry, eol) if retry is not None else "") + eol
            self.send(opening)
            last = events if per_stream is None else min(events, first + per_stream - 1)
            for seq in range(first, last + 1):
                self.wait_until(start + (seq - first) * interval / 1000.0)
                log("EVENT", number, seq, "%.3f" % ((time.monotonic() - start) * 1000.0))
                self.send("id: %d%sevent: tick%sdata: %s%s%s" % (seq, eol, eol, data_of(seq, size), eol, eol))
                sent += 1
        except (ClientGone, *DISCONNECTS):
            log("GONE", number, "sent=%d" % sent)
            self.close_connection = True
            return
        log("END", number, "sent=%d" % sent)
        if self.chunked:
            try:
                self.wfile.write(b"0\r\n\r\n")
            except DISCONNECTS:
                self.close_connection = True  # every event went out: still an END

    def send(self, text):
        payload = text.encode()
        if self.chunked:
            payload = b"%x\r\n" % len(payload) + payload + b"\r\n"
        self.wfile.write(payload)  # unbuffered (wbufsize 0): one sendall, out at once

    def wait_until(self, due):
        """Sleeps until DUE (monotonic), raising ClientGone as soon as the client closes or resets."""
        watch = select.poll()
        watch.register(self.connection, select.POLLIN)
        while True:
            remaining = due - time.monotonic()
            if remaining <= 0:
                return
            if self.peer_sent_data or remaining < 0.002:
                time.sleep(remaining)  # finer than poll's milliseconds
                continue
            # Floor to whole ms so that poll wakes early, never late; the rest is slept above.
            if not watch.poll(int(remaining * 1000) - 1):
                continue
            try:
                if not self.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT):
                    raise ClientGone()
            except BlockingIOError:
                continue
            except OSError:
                raise ClientGone()
            self.peer_sent_data = True  # a pipelined request: left for later, stop watching


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], DISCONNECTS + (TimeoutError,)):
            super().handle_error(request, client_address)  # a bug of ours: show it


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="sse_server.py", description="A Server-Sent Events server on "
                                     "127.0.0.1 for the integration tests (stdlib only).")
    parser.add_argument("port_file", nargs="?", metavar="PORT_FILE",
                        help="write the port here once listening (without: print it on stdout)")
    parser.add_argument("log_file", nargs="?", metavar="LOG_FILE", help="the log (or --log)")
    parser.add_argument("lifetime_arg", nargs="?", type=float, metavar="LIFETIME_SECONDS",
                        help="exit after this many seconds (120; 0: never; or --lifetime)")
    parser.add_argument("--port", type=int, default=0, metavar="N", help="port (0, the default: a free one)")
    parser.add_argument("--log", metavar="LOG_FILE", help="the log file")
    parser.add_argument("--lifetime", type=float, metavar="SECONDS", help="exit after this many seconds")
    args = parser.parse_args(argv)
    if args.port_file and not args.log_file and args.log:
        pass  # PORT_FILE --log FILE
    elif bool(args.log_file) == bool(args.log):
        parser.error("give the log file once: LOG_FILE after PORT_FILE, or --log FILE")
    if args.lifetime is not None and args.lifetime_arg is not None:
        parser.error("give the lifetime once")
    lifetime = next((v for v in (args.lifetime, args.lifetime_arg) if v is not None), 120.0)
    return args.port_file, args.log_file or args.log, args.port, lifetime


def main():
    global LOG_FD
    port_file, log_file, port, lifetime = parse_args(sys.argv[1:])
    LOG_FD = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    try:
        server = Server(("127.0.0.1", port), Handler)
    except OSError as e:
        sys.exit("sse_server.py: cannot listen on 127.0.0.1:%d: %s" % (port, e.strerror))
    port = server.server_address[1]
    if port_file:
        with open(port_file + ".tmp", "w") as f:
            f.write(str(port))
        os.rename(port_file + ".tmp", port_file)  # the reader never sees a half-written port
    else:
        print("listening on http://127.0.0.1:%d/" % port, flush=True)
    if lifetime > 0:
        threading.Timer(lifetime, os._exit, (0,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        os._exit(0)


if __name__ == "__main__":
    main()
