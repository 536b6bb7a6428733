#!/usr/bin/env python3
"""An HTTP/1.1 server behind Digest authentication (RFC 7616) for digest_test.sh (stdlib only).

Usage: digest_server.py PORT_FILE LOG_FILE [ALGORITHM=MD5] [LIFETIME_SECONDS=120]
Binds 127.0.0.1 on a free port, writes the port to PORT_FILE once it listens, and appends one line
per request to LOG_FILE:
  "challenge <method> <target>"          no Authorization: 401 with a fresh nonce
  "ok <method> <target> <nonce> <cnonce>"  an answer that checks out: 200 "secret\\n"
  "bad <method> <target> <why>"          an answer that does not: 401 with a fresh nonce
The user is "ada", the password "s3cret:x" (a colon in it), the realm "stampede test"; qop=auth.
Each nonce answers one request only, as a strict server would. Keep-alive; one thread per
connection; exits after LIFETIME_SECONDS or on SIGTERM.
"""
import hashlib
import http.server
import os
import re
import secrets
import signal
import sys
import threading

USER, PASSWORD, REALM = "ada", "s3cret:x", "stampede test"
HASHES = {"MD5": hashlib.md5, "SHA-256": hashlib.sha256}


def main():
    port_file, log_file = sys.argv[1], sys.argv[2]
    algorithm = sys.argv[3] if len(sys.argv) > 3 else "MD5"
    lifetime = float(sys.argv[4]) if len(sys.argv) > 4 else 120
    digest = HASHES[algorithm]
    h = lambda text: digest(text.encode()).hexdigest()
    lock = threading.Lock()
    nonces = set()
    log = open(log_file, "a", buffering=1)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def record(self, line):
            with lock:
                log.write(line + "\n")

        def challenge(self):
            nonce = secrets.token_hex(16)
            with lock:
                nonces.add(nonce)
            body = b"who are you?\n"
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="other"')
            self.send_header("WWW-Authenticate",
                             'Digest realm="%s", qop="auth", nonce="%s", opaque="op-%s", algorithm=%s'
                             % (REALM, nonce, nonce[:6], algorithm))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def check(self, header):
            fields = {k: a or b for k, a, b in re.findall(r'(\w+)=(?:"([^"]*)"|([^,\s]+))', header)}
            nonce = fields.get("nonce", "")
            with lock:
                fresh = nonce in nonces
                nonces.discard(nonce)
            if not fresh:
                return "stale-or-unknown-nonce", fields
            if fields.get("username") != USER or fields.get("realm") != REALM:
                return "wrong-user-or-realm", fields
            if fields.get("uri") != self.path or fields.get("opaque") != "op-" + nonce[:6]:
                return "wrong-uri-or-opaque", fields
            if fields.get("qop") != "auth" or fields.get("nc") != "00000001" or not fields.get("cnonce"):
                return "wrong-qop-nc-or-cnonce", fields
            ha1 = h("%s:%s:%s" % (USER, REALM, PASSWORD))
            ha2 = h("%s:%s" % (self.command, self.path))
            want = h("%s:%s:%s:%s:auth:%s" % (ha1, nonce, fields["nc"], fields["cnonce"], ha2))
            return ("" if fields.get("response") == want else "wrong-response"), fields

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            header = self.headers.get("Authorization") or ""
            if not header.startswith("Digest "):
                self.record("challenge %s %s" % (self.command, self.path))
                return self.challenge()
            why, fields = self.check(header[len("Digest "):])
            if why:
                self.record("bad %s %s %s" % (self.command, self.path, why))
                return self.challenge()
            self.record("ok %s %s %s %s" % (self.command, self.path, fields["nonce"], fields["cnonce"]))
            body = b"secret\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = handle_any

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Timer(lifetime, lambda: os._exit(0)).start()
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
