#!/usr/bin/python3
"""A gRPC server for the gRPC integration tests: python3-grpcio 1.51 and python3-protobuf 4.21 from
Debian, without generated stubs (Debian's grpc-tools is too old to generate them): protoc compiles
the .proto to a descriptor set at start, and protobuf builds the message classes from it.

Usage: grpc_server.py PORT_FILE LOG_FILE [--port N] [--tls CERT KEY] [--proto FILE]
                      [LIFETIME_SECONDS=120]
Binds 127.0.0.1 on port N (a free one by default; TLS with --tls, h2 by ALPN), writes the port to
PORT_FILE once it listens, and exits by itself after LIFETIME_SECONDS. On SIGTERM it writes the
counts (below) and exits at once. Runs under /usr/bin/python3: Debian installs grpc for that
interpreter only. --proto defaults to protos/helloworld.proto beside this script; every method of
every service in it is served, the request having a string `name` (and an int32 `count` for a
server stream), the reply a string `message` and an int32 `code`.

LOG_FILE gets one JSON line per call as the call arrives, appended and unbuffered (a test reads it
while we run; the line is written before the reply, so once the client has its answer the line is
there):
  {"method": "/helloworld.Greeter/SayHello", "name": NAME, "timeout": SECONDS or null,
   "metadata": [[KEY, VALUE], ...]}
and, for a server stream, one line per answer message as it is handed to grpcio:
  {"streamed": NAME, "index": I}
A bidirectional call (Chat) is logged when its first message arrives, then each message received
and each answered: {"received": NAME, "index": I}, {"streamed": NAME, "index": I}. A
client-streaming call (Collect) logs each message received, and the call as its first arrives
(which chooses, by its name, what the call does); its one answer, once the client ends its
messages, is "Hello NAME (N messages)", NAME the last message's name.
TIMEOUT is what was left of the call's deadline (from grpc-timeout) on arrival, null without one;
METADATA is what grpcio hands the handler, in the order received: the custom metadata and
user-agent (a -bin value as the base64 of its bytes, unpadded).
On SIGTERM, LOG_FILE.counts gets {"calls": {METHOD: N, ...}, "codes": {METHOD: {CODE: N}}}: CODE
is the status the handler answered: OK, the one asked for by fail:, or ENDED_BY_CLIENT_OR_DEADLINE
for a sleep:MS call that was over (cancelled by the client, or past its deadline) before its end.

The request's name chooses what the server does:
  fail:CODE[:TEXT]  answers status CODE (a name such as NOT_FOUND, or a number) with message TEXT
                    ("failed on request" by default) and no message: a Trailers-Only response
  sleep:MS          waits MS milliseconds, or until the deadline passes (then gRPC answers
                    DEADLINE_EXCEEDED itself), then answers as usual
  code:N            answers as usual, with code N in the reply
  big:N             answers as usual, its message N bytes of "x" (a reply over the client's limit)
  anything else     answers {"message": "Hello NAME", "code": 200}; a stream answers `count`
                    such messages ("Hello NAME #i"), 3 when count is 0
A call with metadata "x-echo: V" gets "x-echo: V" back in its trailers, whatever its outcome.
"""

import base64
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, message_factory

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PROTO = os.path.join(HERE, "protos", "helloworld.proto")


def load_services(proto_file):
    """{"/package.Service/Method": (request class, reply class, server_streaming,
    client_streaming)} for every method of every service in proto_file, compiled by protoc."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "set.pb")
        subprocess.run(
            ["protoc", "--include_imports", "--descriptor_set_out=" + out,
             "-I" + os.path.dirname(os.path.abspath(proto_file)), os.path.abspath(proto_file)],
            check=True)
        with open(out, "rb") as f:
            file_set = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    classes = message_factory.GetMessages(file_set.file)
    main = file_set.file[-1]  # protoc lists imports first
    methods = {}
    for service in main.service:
        for method in service.method:
            full = "%s.%s" % (main.package, service.name) if main.package else service.name
            methods["/%s/%s" % (full, method.name)] = (
                classes[method.input_type.lstrip(".")],
                classes[method.output_type.lstrip(".")],
                method.server_streaming, method.client_streaming)
    return methods


class Log:
    """The per-call log and the counts, shared by the handler threads."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.path = path
        self.lock = threading.Lock()
        self.calls = collections.Counter()
        self.codes = collections.defaultdict(collections.Counter)

    def arrived(self, method, name, context):
        metadata = []
        for key, value in context.invocation_metadata():
            if isinstance(value, bytes):
                value = base64.b64encode(value).decode().rstrip("=")
            metadata.append([key, value])
        remaining = context.time_remaining()  # a huge number when the call has no deadline
        line = json.dumps({"method": method, "name": name,
                           "timeout": remaining if remaining < 1e9 else None,
                           "metadata": metadata})
        with self.lock:
            self.calls[method] += 1
            os.write(self.fd, (line + "\n").encode())

    def streamed(self, name, index, key="streamed"):
        with self.lock:
            os.write(self.fd, (json.dumps({key: name, "index": index}) + "\n").encode())

    def answered(self, method, code):
        with self.lock:
            self.codes[method][code] += 1

    def write_counts(self):
        with self.lock:
            counts = {"calls": dict(self.calls),
                      "codes": {m: dict(c) for m, c in self.codes.items()}}
        with open(self.path + ".counts.tmp", "w") as f:
            json.dump(counts, f)
        os.rename(self.path + ".counts.tmp", self.path + ".counts")


def status_code(text):
    """grpc.StatusCode named by text: NOT_FOUND, not_found or 5."""
    for code in grpc.StatusCode:
        if text.upper() == code.name or text == str(code.value[0]):
            return code
    raise ValueError("no gRPC status code " + text)


def sleep_within_deadline(ms, context):
    end = time.monotonic() + ms / 1000.0
    while context.is_active() and time.monotonic() < end:
        time.sleep(min(0.01, max(0.0, end - time.monotonic())))


def reply(reply_class, name, suffix=""):
    code = int(name[5:]) if name.startswith("code:") else 200
    if name.startswith("big:"):
        return reply_class(message="x" * int(name[4:]), code=code)
    return reply_class(message="Hello " + name + suffix, code=code)


def make_handler(log, method, reply_class, streaming, requests_stream=False):
    """The behaviour function for one method (see the module's docstring)."""

    def prepare(request, context):
        """Logs the call, echoes x-echo, fails or sleeps as asked; the name, to answer."""
        log.arrived(method, request.name, context)
        echo = [(k, v) for k, v in context.invocation_metadata() if k == "x-echo"]
        if echo:
            context.set_trailing_metadata(echo)
        name = request.name
        if name.startswith("fail:"):
            parts = name.split(":", 2)
            code = status_code(parts[1])
            log.answered(method, code.name)
            context.abort(code, parts[2] if len(parts) > 2 else "failed on request")
        if name.startswith("sleep:"):
            sleep_within_deadline(int(name[6:]), context)
        log.answered(method, "OK" if context.is_active() else "ENDED_BY_CLIENT_OR_DEADLINE")
        return name

    def unary(request, context):
        return reply(reply_class, prepare(request, context))

    def stream(request, context):
        name = prepare(request, context)
        for i in range(request.count or 3):
            log.streamed(name, i)
            yield reply(reply_class, name, " #%d" % i)

    def chat(requests, context):
        for i, request in enumerate(requests):
            if i == 0:
                log.arrived(method, request.name, context)
            log.streamed(request.name, i, "received")
            log.streamed(request.name, i)
            yield reply(reply_class, request.name, " #%d" % i)

    def collect(requests, context):
        count, name = 0, ""
        for i, request in enumerate(requests):
            log.streamed(request.name, i, "received")
            if i == 0:
                prepare(request, context)  # logs the call; fails or sleeps as its name asks
            count, name = i + 1, request.name
        return reply(reply_class, name, " (%d messages)" % count)

    if requests_stream:
        return chat if streaming else collect
    return stream if streaming else unary


def parse_args(argv):
    """(port_file, log_file, port, (cert, key) or None, proto, lifetime)."""
    args, port, tls, proto = list(argv), 0, None, DEFAULT_PROTO
    for flag, width in (("--port", 1), ("--tls", 2), ("--proto", 1)):
        if flag in args:
            i = args.index(flag)
            values = args[i + 1: i + 1 + width]
            del args[i: i + 1 + width]
            if flag == "--port":
                port = int(values[0])
            elif flag == "--tls":
                tls = tuple(values)
            else:
                proto = values[0]
    if len(args) not in (2, 3):
        sys.exit("usage: grpc_server.py PORT_FILE LOG_FILE [--port N] [--tls CERT KEY] "
                 "[--proto FILE] [LIFETIME_SECONDS=120]")
    return args[0], args[1], port, tls, proto, float(args[2]) if len(args) == 3 else 120.0


def main():
    port_file, log_file, port, tls, proto, lifetime = parse_args(sys.argv[1:])
    log = Log(log_file)
    handlers = {}
    for method, (request_class, reply_class, streaming, requests_stream) in load_services(proto).items():
        service, name = method[1:].split("/")
        behaviour = make_handler(log, method, reply_class, streaming, requests_stream)
        if requests_stream:
            make = grpc.stream_stream_rpc_method_handler if streaming else grpc.stream_unary_rpc_method_handler
        else:
            make = grpc.unary_stream_rpc_method_handler if streaming else grpc.unary_unary_rpc_method_handler
        handlers.setdefault(service, {})[name] = make(
            behaviour, request_deserializer=request_class.FromString,
            response_serializer=lambda message: message.SerializeToString())
    # Enough threads that sleeping calls do not hold up the others in a test's bounded load.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=64),
                         options=[("grpc.so_reuseport", 0)])
    for service, methods in handlers.items():
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, methods),))
    address = "127.0.0.1:%d" % port
    if tls:
        with open(tls[0], "rb") as cert, open(tls[1], "rb") as key:
            credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
        port = server.add_secure_port(address, credentials)
    else:
        port = server.add_insecure_port(address)
    server.start()

    def stop(*_):
        log.write_counts()
        os._exit(0)  # without waiting for calls in progress

    signal.signal(signal.SIGTERM, stop)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(port_file + ".tmp", port_file)  # the reader never sees a half-written port
    server.wait_for_termination(timeout=lifetime)
    stop()


if __name__ == "__main__":
    main()
