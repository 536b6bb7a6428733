#!/usr/bin/env python3
"""A misbehaving HTTP/1.1 server for fault_injection_test.sh: one fault per path (stdlib only).

Usage: fault_server.py PORT_FILE LOG_FILE [LIFETIME_SECONDS=120] [--tls CERT KEY]
Binds 127.0.0.1 on a free port, writes the port to PORT_FILE once it listens, and appends one
line per request head it reads to LOG_FILE: "<connection number> <method> <target>". It exits by
itself after LIFETIME_SECONDS, or on SIGTERM. One thread per connection.

--tls CERT KEY: HTTPS (tls_fault_test.sh). Each connection shakes hands first (at most
HANDSHAKE_SECONDS: a client that never does only ends its own thread), then every path behaves
as below, its bytes inside TLS records (/garbage: garbage plaintext, encrypted). /reset is still
a TCP RST, without close_notify. Every other close is a plain TCP close without close_notify, as
many servers' are (nginx's when a keep-alive connection times out, any server's that dies), so
a client sees an unexpected EOF there (an "incomplete close", RFC 9112 section 9.8). But /noclen,
whose body ends at the close, sends close_notify first (a "complete close"): only that tells a
TLS client the body is whole, so that is what a server that means it to be does.

Paths (the query string is ignored for dispatch but logged, so runs can be told apart):
  /ok         200, Content-Length, keep-alive (closes when the request says Connection: close)
  /delay      /ok after 20 ms (for the kill-mid-run case)
  /reset      reads the request, then closes with RST (SO_LINGER 0) without answering
  /close      reads the request, then closes with FIN without answering
  /partial    headers with Content-Length: 1000, 10 body bytes, then FIN
  /garbage    "this is not http\\r\\n\\r\\n", then FIN
  /bigheader  a status line, then one header line of 100 KiB (never ends the head), then FIN
  /stall      reads the request, never answers; leaves when the client does
  /slowbody   headers (Content-Length: 100) at once, then 1 body byte every 200 ms
  /badlength  "Content-Length: abc", then FIN
  /chunked    a valid chunked 200 ("hello world"), keep-alive
  /noclen     a 200 without Content-Length, "Connection: close", body delimited by FIN
  /idleclose  a valid keep-alive 200 (no "Connection: close"), then FIN right after it, as a
              server whose idle timeout is very short would
  /interim    an unsolicited "103 Early Hints" interim response, then a valid 200 (RFC 9110
              section 15.2: a client must parse 1xx responses it did not ask for)
  /okthenreset  answers the first request of each connection (keep-alive); resets every later one
              after reading it
  /badserver  a valid keep-alive 200 whose Server header is not UTF-8 and holds a terminal
              escape: "Server: evil\\xff\\xfe\\x1b[2J"
anything else: 404 with Content-Length, keep-alive.
"""

import argparse
import os
import signal
import socket
import ssl
import struct
import threading
import time

OK_BODY = b"ok\n"
HEAD_LIMIT = 64 * 1024
HANDSHAKE_SECONDS = 5.0


def response(status, headers, body=b""):
    head = "HTTP/1.1 %s\r\n" % status + "".join("%s: %s\r\n" % h for h in headers) + "\r\n"
    return head.encode() + body


def ok(close):
    headers = [("Content-Length", len(OK_BODY)), ("Content-Type", "text/plain")]
    if close:
        headers.append(("Connection", "close"))
    return response("200 OK", headers, OK_BODY)


class Connection:
    """One accepted socket: reads request heads and answers each by its path's behaviour."""

    def __init__(self, sock, number, log_fd, deadline):
        self.sock, self.number, self.log_fd, self.deadline = sock, number, log_fd, deadline
        self.buffer = b""
        self.requests = 0
        self.notify = False  # over TLS, close with close_notify (see the module's docstring)

    def read_head(self):
        """The next request head (bytes before CRLFCRLF), or None when the client left."""
        while b"\r\n\r\n" not in self.buffer:
            if len(self.buffer) > HEAD_LIMIT or time.time() > self.deadline:
                return None
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return None
            if not chunk:
                return None
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        return head.decode("latin-1")

    def wait_for_client_to_leave(self):
        while time.time() < self.deadline:
            try:
                if not self.sock.recv(65536):
                    return
            except socket.timeout:
                continue
            except OSError:
                return

    def reset(self):
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def serve(self):
        """Returns when the connection is done; the caller closes the socket (FIN)."""
        while True:
            head = self.read_head()
            if head is None:
                return
            self.requests += 1
            lines = head.split("\r\n")
            method, target = (lines[0].split(" ") + ["", ""])[:2]
            os.write(self.log_fd, ("%d %s %s\n" % (self.number, method, target)).encode())
            client_close = any(
                line.lower().startswith("connection:") and "close" in line.lower() for line in lines[1:]
            )
            if not getattr(self, "path_" + target.split("?")[0].strip("/"), self.path_unknown)(client_close):
                return

    # Each path_* answers one request; True keeps the connection open for the next one.
    def path_ok(self, close):
        self.sock.sendall(ok(close))
        return not close

    def path_delay(self, close):
        time.sleep(0.02)
        return self.path_ok(close)

    def path_unknown(self, close):
        headers = [("Content-Length", 0)] + ([("Connection", "close")] if close else [])
        self.sock.sendall(response("404 Not Found", headers))
        return not close

    def path_reset(self, close):
        self.reset()
        return False

    def path_close(self, close):
        return False

    def path_partial(self, close):
        self.sock.sendall(response("200 OK", [("Content-Length", 1000)], b"0123456789"))
        return False

    def path_garbage(self, close):
        self.sock.sendall(b"this is not http\r\n\r\n")
        return False

    def path_bigheader(self, close):
        self.sock.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (100 * 1024) + b"\r\n")
        return False

    def path_stall(self, close):
        self.wait_for_client_to_leave()
        return False

    def path_slowbody(self, close):
        self.sock.sendall(response("200 OK", [("Content-Length", 100)]))
        for _ in range(100):
            time.sleep(0.2)
            self.sock.sendall(b"x")
        return not close

    def path_badlength(self, close):
        self.sock.sendall(response("200 OK", [("Content-Length", "abc")]))
        return False

    def path_chunked(self, close):
        body = b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        headers = [("Transfer-Encoding", "chunked")] + ([("Connection", "close")] if close else [])
        self.sock.sendall(response("200 OK", headers, body))
        return not close

    def path_noclen(self, close):
        body = b"delimited by the end of the connection\n"
        self.sock.sendall(response("200 OK", [("Connection", "close")], body))
        self.notify = True
        return False

    def path_idleclose(self, close):
        self.sock.sendall(ok(False))
        return False

    def path_interim(self, close):
        hints = response("103 Early Hints", [("Link", "</style.css>; rel=preload; as=style")])
        self.sock.sendall(hints + ok(close))
        return not close

    def path_badserver(self, close):
        headers = b"Content-Length: 3\r\nServer: evil\xff\xfe\x1b[2J\r\n"
        if close:
            headers += b"Connection: close\r\n"
        self.sock.sendall(b"HTTP/1.1 200 OK\r\n" + headers + b"\r\n" + OK_BODY)
        return not close

    def path_okthenreset(self, close):
        if self.requests > 1:
            self.reset()
            return False
        return self.path_ok(close)


def send_close_notify(sock):
    """Sends close_notify without waiting for the client's (unwrap() would wait for it)."""
    try:
        sock.settimeout(0.0)
        sock.unwrap()
    except (OSError, ValueError):
        pass  # SSLWantReadError: ours is sent, the client's not come; or the client left


def handle(sock, number, log_fd, deadline, tls):
    if tls is not None:
        # Shake hands with a bound: a client that connects and says nothing (a port probe) must
        # not hold the thread. A failed handshake ends the connection before any request.
        sock.settimeout(HANDSHAKE_SECONDS)
        try:
            sock = tls.wrap_socket(sock, server_side=True)
        except (OSError, ValueError):
            sock.close()
            return
    sock.settimeout(0.5)
    connection = Connection(sock, number, log_fd, deadline)
    try:
        connection.serve()
        if connection.notify and tls is not None:
            send_close_notify(sock)
    except OSError:
        pass  # the client left first (reset, broken pipe): that is its business
    finally:
        try:
            sock.close()  # an SSLSocket's close() sends no close_notify
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser(description="A misbehaving HTTP/1.1 server, one fault a path.")
    parser.add_argument("port_file")
    parser.add_argument("log_file")
    parser.add_argument("lifetime", nargs="?", type=float, default=120.0, help="seconds (120)")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="HTTPS with this certificate")
    args = parser.parse_args()
    port_file, log_file = args.port_file, args.log_file
    deadline = time.time() + args.lifetime
    tls = None
    if args.tls:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(*args.tls)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    log_fd = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(512)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    listener.settimeout(0.5)
    number = 0
    while time.time() < deadline:
        try:
            sock, _ = listener.accept()
        except socket.timeout:
            continue
        number += 1
        work = (sock, number, log_fd, deadline, tls)
        threading.Thread(target=handle, args=work, daemon=True).start()
    os._exit(0)


if __name__ == "__main__":
    main()
