"""Capture server and comparison for curl_replay_test.sh (stdlib only, loopback only, bounded).

serve LOG PORTFILE [UNIX_PATH ABSTRACT_NAME]
                        answers every HTTP/1.x request with 200 "ok" and appends one JSON line
                        per request to LOG (method, target, version, headers in order, body as
                        base64) before answering, so a client that has exited has been recorded.
                        Listens on 127.0.0.1 (its port in PORTFILE) and, if given, on a Unix
                        socket at UNIX_PATH and one named ABSTRACT_NAME in the abstract namespace.
compare DIR NAME...     for each NAME, DIR/NAME.curl.jsonl and DIR/NAME.live.jsonl hold the JSON
                        lines of curl's and stampede's runs, DIR/NAME.printed.out stampede's
                        --print-request output; prints a diff for each NAME whose method,
                        target, headers (names, case, order and values) or body differ, and
                        exits 1 listing them (one process for all: a start each is seconds).
"""
import base64
import json
import os
import re
import socket
import sys
import threading
import time


def parse_head(head):
    lines = head.decode("latin-1").split("\r\n")
    method, target, version = lines[0].split(" ", 2)
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append([name, value.strip(" \t")])
    return method, target, version, headers


def length_of(headers):
    for name, value in headers:
        if name.lower() == "content-length":
            return int(value)
    return 0


def record(method, target, version, headers, body):
    return {"method": method, "target": target, "version": version, "headers": headers,
            "body": base64.b64encode(body).decode()}


def keeps_open(version, headers):
    """HTTP/1.0 closes after the response unless the client asked for keep-alive."""
    connection = ",".join(v.lower() for n, v in headers if n.lower() == "connection")
    return "keep-alive" in connection if version == "HTTP/1.0" else "close" not in connection


def serve_connection(conn, log, lock):
    conn.settimeout(15)
    buffer = b""
    try:
        while True:
            while b"\r\n\r\n" not in buffer:
                data = conn.recv(65536)
                if not data:
                    return
                buffer += data
            head, _, buffer = buffer.partition(b"\r\n\r\n")
            method, target, version, headers = parse_head(head)
            need = length_of(headers)
            expects = any(n.lower() == "expect" for n, _ in headers)
            if expects and len(buffer) < need:
                conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            while len(buffer) < need:
                data = conn.recv(65536)
                if not data:
                    return
                buffer += data
            body, buffer = buffer[:need], buffer[need:]
            with lock:
                with open(log, "a") as f:
                    f.write(json.dumps(record(method, target, version, headers, body)) + "\n")
            keep = keeps_open(version, headers)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"
                         + (b"Connection: keep-alive\r\n" if keep else b"Connection: close\r\n")
                         + b"\r\n" + (b"" if method == "HEAD" else b"ok"))
            if not keep:
                return
    except (OSError, ValueError):
        return
    finally:
        conn.close()


def accept_loop(server, log, lock, end):
    server.settimeout(0.5)
    while time.time() < end:
        try:
            conn, _ = server.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve_connection, args=(conn, log, lock), daemon=True).start()


def serve(log, portfile, unix_path=None, abstract_name=None):
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    servers = [server]
    if unix_path:
        servers.append(socket.socket(socket.AF_UNIX))
        servers[-1].bind(unix_path)
    if abstract_name:
        servers.append(socket.socket(socket.AF_UNIX))
        servers[-1].bind("\0" + abstract_name)
    for s in servers:
        s.listen(64)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.getsockname()[1]))
    os.rename(portfile + ".tmp", portfile)
    lock = threading.Lock()
    end = time.time() + 900
    threads = [threading.Thread(target=accept_loop, args=(s, log, lock, end), daemon=True)
               for s in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def printed(path):
    """--print-request's output as the records the capture server writes."""
    data = open(path, "rb").read()
    records = []
    while data:
        marker = re.match(rb"--- step \d+ of \d+\n", data)
        if marker:
            data = data[marker.end():]
        head, _, data = data.partition(b"\r\n\r\n")
        method, target, version, headers = parse_head(head)
        need = length_of(headers)
        body, data = data[:need], data[need:]
        if marker and data.startswith(b"\n"):
            data = data[1:]
        records.append(record(method, target, version, headers, body))
    return records


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def own_settings(value):
    """An h2c upgrade's HTTP2-Settings value stands for whoever sends it: each client offers its
    own SETTINGS. It must be a SETTINGS payload in base64url (6 bytes a setting, RFC 7540 3.2.1)."""
    try:
        payload = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        return "not base64url: %r" % value
    return "SETTINGS" if payload and len(payload) % 6 == 0 else "not a SETTINGS payload: %r" % value


def normalize(r, drop_agent):
    """The request as sent: header names in their case and order, values without surrounding
    blanks; the random multipart boundary replaced by a fixed word; an h2c upgrade's SETTINGS
    are the sender's own. An HTTP/1.0 request's `Connection: keep-alive` is left out: stampede -k
    asks for it, curl -0 does not."""
    body = base64.b64decode(r["body"])
    headers = []
    for name, value in r["headers"]:
        lname = name.lower()
        if drop_agent and lname == "user-agent":
            value = "(each its own)"
        if r["version"] == "HTTP/1.0" and lname == "connection" and value.lower() == "keep-alive":
            continue
        if lname == "http2-settings":
            value = own_settings(value)
        match = re.search(r"boundary=(\S+)", value) if lname == "content-type" else None
        if match:
            body = body.replace(match.group(1).encode(), b"BOUNDARY")
            value = value.replace(match.group(1), "BOUNDARY")
        headers.append((name, value))
    return {"method": r["method"], "target": r["target"], "version": r["version"],
            "headers": headers, "body": body}


def differences(want, got):
    out = []
    for key in ("method", "target", "version", "body"):
        if want[key] != got[key]:
            out.append("  %s: curl %r, stampede %r" % (key, want[key][:300], got[key][:300]))
    missing = [h for h in want["headers"] if h not in got["headers"]]
    extra = [h for h in got["headers"] if h not in want["headers"]]
    if missing:
        out.append("  headers curl sent and stampede did not: %r" % missing)
    if extra:
        out.append("  headers stampede sent and curl did not: %r" % extra)
    if not missing and not extra and want["headers"] != got["headers"]:
        out.append("  headers in another order: curl %r, stampede %r"
                   % ([n for n, _ in want["headers"]], [n for n, _ in got["headers"]]))
    return out


def compare(name, curl, live, printed_records):
    """True when stampede's live and printed requests are curl's; else prints the differences."""
    problems = []
    if not curl:
        problems.append("  curl sent nothing")
    if len(printed_records) != len(curl):
        problems.append("  curl sent %d requests, --print-request shows %d"
                        % (len(curl), len(printed_records)))
    if len(live) != len(curl):
        problems.append("  curl sent %d requests, stampede -c 1 -n 1 sent %d (one per step)"
                        % (len(curl), len(live)))
    pairs = list(zip(curl, printed_records)) + list(zip(curl, live))
    for i, (c, s) in enumerate(pairs):
        agent = dict((n.lower(), v) for n, v in c["headers"]).get("user-agent")
        # The one intended difference: without a User-Agent in the file, stampede sends its own.
        drop_agent = agent == "curl/7.88.1"
        if drop_agent and not any(n.lower() == "user-agent" and v.startswith("stampede/")
                                  for n, v in s["headers"]):
            problems.append("  stampede did not send its own User-Agent")
        diff = differences(normalize(c, drop_agent), normalize(s, drop_agent))
        if diff:
            which = "live request" if i >= len(printed_records) else "step %d" % (i + 1)
            problems.append(" %s:" % which)
            problems.extend(diff)
    if problems:
        print("MISMATCH %s\n%s" % (name, "\n".join(problems)), file=sys.stderr)
    return not problems


def compare_all(directory, names):
    failed = []
    for name in names:
        at = os.path.join(directory, name)
        if not compare(name, load(at + ".curl.jsonl"), load(at + ".live.jsonl"),
                       printed(at + ".printed.out")):
            failed.append(name)
    if failed:
        print("%d samples differ from curl: %s" % (len(failed), " ".join(failed)), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "serve":
        serve(*sys.argv[2:6])
    else:
        compare_all(sys.argv[2], sys.argv[3:])
