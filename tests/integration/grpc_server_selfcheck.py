#!/usr/bin/python3
"""Checks grpc_server.py with grpcio's own client, plain and TLS: replies, streams, failures on
request, deadlines, metadata echoed and logged, and the counts written on SIGTERM. Not a *_test.sh:
it needs no stampede, and CTest does not run it. Run: /usr/bin/python3 grpc_server_selfcheck.py
(needs protoc and openssl); prints PASS, or the first failed check and exits 1."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import grpc_server  # noqa: E402  (its loader builds the message classes for the client too)

METHODS = grpc_server.load_services(grpc_server.DEFAULT_PROTO)
HelloRequest, HelloReply, _ = METHODS["/helloworld.Greeter/SayHello"]
SAY_HELLO, SAY_HELLOS = "/helloworld.Greeter/SayHello", "/helloworld.Greeter/SayHellos"


def check(condition, what):
    if not condition:
        print("FAIL: " + what)
        sys.exit(1)


def start(tmp, name, *args):
    """Starts the server; (process, port, log file)."""
    port_file, log_file = os.path.join(tmp, name + ".port"), os.path.join(tmp, name + ".log")
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "grpc_server.py"), port_file,
                               log_file, *args, "60"])
    for _ in range(200):
        if os.path.exists(port_file):
            with open(port_file) as f:
                return server, int(f.read()), log_file
        check(server.poll() is None, "the server died at start")
        time.sleep(0.05)
    check(False, "the server did not write its port")


def stop(server, log_file):
    """SIGTERM, then the counts it wrote."""
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=10)
    with open(log_file + ".counts") as f:
        return json.load(f)


def calls(channel):
    unary = channel.unary_unary(SAY_HELLO, request_serializer=HelloRequest.SerializeToString,
                                response_deserializer=HelloReply.FromString)
    stream = channel.unary_stream(SAY_HELLOS, request_serializer=HelloRequest.SerializeToString,
                                  response_deserializer=HelloReply.FromString)
    return unary, stream


def error_of(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except grpc.RpcError as error:
        return error
    check(False, "no error from a call that should fail")


def check_behaviours(channel):
    """Every behaviour of the server's docstring; 8 SayHello and 2 SayHellos calls."""
    unary, stream = calls(channel)
    reply = unary(HelloRequest(name="world"))
    check((reply.message, reply.code) == ("Hello world", 200), "reply %r" % reply)
    check(unary(HelloRequest(name="code:503")).code == 503, "code:N")
    replies = list(stream(HelloRequest(name="s")))
    check([r.message for r in replies] == ["Hello s #0", "Hello s #1", "Hello s #2"], "stream of 3")
    check(len(list(stream(HelloRequest(name="s", count=5)))) == 5, "stream of count")
    error = error_of(unary, HelloRequest(name="fail:NOT_FOUND:no such thing"))
    check((error.code(), error.details()) == (grpc.StatusCode.NOT_FOUND, "no such thing"),
          "fail:NOT_FOUND: %s %s" % (error.code(), error.details()))
    error = error_of(unary, HelloRequest(name="fail:14"))
    check((error.code(), error.details()) == (grpc.StatusCode.UNAVAILABLE, "failed on request"),
          "fail:14")
    started = time.monotonic()
    error = error_of(unary, HelloRequest(name="sleep:5000"), timeout=0.3)
    check(error.code() == grpc.StatusCode.DEADLINE_EXCEEDED, "sleep past the deadline")
    check(time.monotonic() - started < 2, "the deadline ended the call early")
    check(unary(HelloRequest(name="sleep:100"), timeout=5).message == "Hello sleep:100", "sleep")
    _, call = unary.with_call(HelloRequest(name="e"),
                              metadata=[("x-echo", "back"), ("x-raw-bin", b"\x00\x01\x02")])
    check(dict(call.trailing_metadata()).get("x-echo") == "back", "x-echo in the trailers")
    error = error_of(unary, HelloRequest(name="fail:INTERNAL"), metadata=[("x-echo", "too")])
    check(dict(error.trailing_metadata()).get("x-echo") == "too", "x-echo on a failure")


def check_log(log_file):
    with open(log_file) as f:
        lines = [json.loads(line) for line in f]
    check(len(lines) == 10, "10 calls logged, not %d" % len(lines))
    check(sum(line["method"] == SAY_HELLOS for line in lines) == 2, "2 streams logged")
    echoed = [line for line in lines if line["name"] == "e"][0]
    check(["x-echo", "back"] in echoed["metadata"], "metadata logged: %r" % echoed["metadata"])
    check(["x-raw-bin", "AAEC"] in echoed["metadata"], "binary metadata logged as base64")
    slept = [line for line in lines if line["name"] == "sleep:5000"][0]
    # grpc-timeout is rounded up (gRPC clients do, so that the server does not give up first).
    check(0.2 < slept["timeout"] < 0.4, "the deadline logged: %r" % slept["timeout"])
    check([line for line in lines if line["name"] == "world"][0]["timeout"] is None,
          "no deadline logged as null")


def check_counts(counts):
    check(counts["calls"] == {SAY_HELLO: 8, SAY_HELLOS: 2}, "counts %r" % counts["calls"])
    codes = counts["codes"][SAY_HELLO]
    check((codes["NOT_FOUND"], codes["UNAVAILABLE"], codes["INTERNAL"]) == (1, 1, 1),
          "codes %r" % codes)
    # Which of the two the sleeping handler sees first is the runtime's business.
    check(codes["OK"] + codes.get("ENDED_BY_CLIENT_OR_DEADLINE", 0) == 5, "codes %r" % codes)


def run(tmp, name, tls):
    args, credentials = [], None
    if tls:
        cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
        args = ["--tls", cert, key]
        with open(cert, "rb") as f:
            credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
    server, port, log_file = start(tmp, name, *args)
    try:
        target = "127.0.0.1:%d" % port
        with (grpc.secure_channel(target, credentials) if tls else
              grpc.insecure_channel(target)) as channel:
            check_behaviours(channel)
        check_log(log_file)
        check_counts(stop(server, log_file))
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        run(tmp, "plain", tls=False)
        run(tmp, "tls", tls=True)
    print("PASS")


if __name__ == "__main__":
    main()
