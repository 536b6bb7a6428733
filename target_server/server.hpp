// The built-in target behind `stampede serve`: HTTP/1.1, HTTP/2, TLS, gRPC echo and WebSocket.
//
// A fast server for demos and tests, speaking every protocol stampede does.
//
// Routes (every method is answered; HEAD gets the head only; query strings are ignored, but
// for /sse's and /trickle's parameters), the same over HTTP/1.1 and HTTP/2 (same status, body,
// Server, Content-Type, Content-Length):
//   /                200 text/plain "hello stampede\n"
//   /json            200 application/json {"code":200,"msg":"ok"}
//   /status/{code}   that status (200..599; anything else is 400), body "<reason phrase>\n"
//                    (204 and 304 have no body)
//   /delay/{ms}      200 "hello stampede\n" after ms milliseconds (capped at 60000); over HTTP/2
//                    the connection's other streams go on meanwhile
//   /bytes/{n}       200 application/octet-stream, n bytes of 'x' (n at most 100 MiB; a larger
//                    n gets 400 with a body saying so)
//   /sse             200 text/event-stream, Cache-Control: no-cache, chunked (HTTP/2: DATA as
//                    due): ": stampede", "retry: MS" if asked, a blank line, then events
//                    "id: I", "data: {"seq":I}" (padded to size B: {"seq":I,"pad":"xx.."}),
//                    a blank line; event 1 at once, event I (I-1)*interval after it;
//                    ?events=N (10; at most 1000000) &interval=MS (100; at most 60000)
//                    &size=B (at most 1 MiB) &retry=MS &eol=lf|crlf|cr &fault=stall|long|utf8|cut
//                    (after the events: "data: half" then silence; "data: " and 10 MiB of 'x'
//                    then silence; one more event of invalid UTF-8; a close or RST_STREAM
//                    without the end); Last-Event-ID: K resumes with event K+1; then the
//                    response ends and the connection goes on (paced_body.hpp)
//   /trickle         200 application/octet-stream, chunked: ?chunks=N (10) of size=B (16, at
//                    least 1) bytes of 'x', chunk 1 at once, chunk I at (I-1)*interval (100 ms)
//   /echo            WebSocket (websocket.hpp): each message sent back, text as text, binary as
//                    binary
//   /acc             WebSocket: go-stress-testing's ping, {"seq":"S","cmd":"ping","data":{}},
//                    answered {"seq":"S","cmd":"ping","response":{"code":200,"codeMsg":"Success",
//                    "data":null}}; anything else gets code 400 or 404 (acc.hpp)
//   anything else    404
// A bad value of a parameter is a 400; other parameters are ignored. Every response carries
// "Server: stampede/0.1.0" and Content-Length (except 204 and 304, and /sse's and /trickle's
// chunked bodies).
//
// gRPC, over HTTP/2 only (h2c or h2), for a request with content-type application/grpc (or
// application/grpc+...), whatever its path; no .proto is needed (h2_server.hpp):
//   POST /stampede.Echo/Echo   :status 200, content-type application/grpc, the request's DATA
//                              (its length-prefixed messages) sent back unchanged, then the
//                              trailers grpc-status: 0 (no grpc-message); over 16 MiB of request
//                              gets grpc-status 8 (RESOURCE_EXHAUSTED)
//   POST /stampede.Echo/Fail   trailers only: HEADERS with :status 200, content-type
//                              application/grpc, grpc-status from the request's x-fail-code
//                              (0..16; 13 INTERNAL without one), grpc-message, END_STREAM
//   POST /stampede.Echo/Chat   bidirectional: the head at once, each request byte back as it
//                              comes (a message is answered once whole), the trailers once the
//                              client ends its requests; over 16 MiB not sent back yet: status 8
//   POST /stampede.Echo/Collect  client streaming: the request's last message back (an empty
//                              one if it had none), then grpc-status 0; a request ending inside
//                              a message gets 13 (INTERNAL)
//   POST /stampede.Echo/Repeat server streaming: the request's messages back x-count times
//                              (default 3, at most 1000000), x-interval-ms apart (0 to 60000,
//                              default 0), then grpc-status 0
//   any other path             trailers only, grpc-status 12 (UNIMPLEMENTED), grpc-message
//
// HTTP/2 (h2_connection.hpp): on the port, h2c by prior knowledge (a connection whose first bytes
// are the connection preface, looked at once, where the HTTP/1.1 connection reads its first
// bytes) or by "Upgrade: h2c" with HTTP2-Settings (101, then the request is stream 1; one with
// a body is answered as HTTP/1.1). SETTINGS_MAX_CONCURRENT_STREAMS is max_streams (1000 by
// default), windows are 16 MiB, request bodies are read and discarded, /delay waits on a timer.
// HTTP/2 connections idle for idle_timeout are closed, as HTTP/1.1 ones are (never with 0).
//
// TLS (tls_port): ALPN offers h2 and http/1.1; h2 gets HTTP/2, http/1.1 or no ALPN the HTTP/1.1
// connection below (keep-alive, pipelining, WebSocket as wss; "Upgrade: h2c" is ignored). The
// certificate is options.certificate, or one made at start (certificate.hpp: self-signed,
// EC P-256, localhost, 127.0.0.1 and ::1, valid a year).
//
// WebSocket: a GET HTTP/1.1 with "Upgrade: websocket" to /echo or /acc, on the same port; the
// connection is handed over to Beast's websocket stream once the request head is read. Without
// "Upgrade: websocket" they answer 426 (Upgrade Required); an upgrade RFC 6455 refuses (no
// valid Sec-WebSocket-Key, a version other than 13, "upgrade" missing from Connection) gets 400
// and a close. Pings get pongs, a close gets a close, a protocol error close 1002, a message
// over 1 MiB close 1009. WebSocket connections are never closed for being idle; an idle one
// costs 3.4 KiB (docs/benchmarks.md). `serve --workers N` runs N processes on one port
// (workers.hpp).
//
// HTTP/1.1 keep-alive and pipelining; HTTP/1.0 closes unless it asks for keep-alive;
// "Connection: close" is honoured; request bodies (sized or chunked) are read and discarded;
// "Expect: 100-continue" is answered. A malformed request gets 400 and a head over 8 KiB gets
// 431, both followed by a close. HTTP connections idle for idle_timeout (60 s by default, `serve
// --idle-timeout`) are closed; with 0, never.
//
// With max_in_flight K (`serve --max-in-flight`, admission.hpp), at most K requests are served at
// once across the server's threads: one arriving while K are in flight is answered at once with
// 503 and busy_body (routes.hpp), the connection kept open (unless the request asked to close).
// An HTTP/1.1 request counts from when it is parsed until its answer is queued (a /bytes body
// until its last piece is), an HTTP/2 stream from its request until its answer is submitted; a
// /delay wait counts in both, and so does an /sse or /trickle until its body ends. WebSocket
// upgrades and gRPC calls are not counted nor refused: a WebSocket connection holds no request,
// and a gRPC client would want a gRPC status, not a 503.
// Each Server (so each `serve --workers` process) has its own count.
//
// Made to stay out of the way of the load it receives: responses are pre-built, a request
// allocates nothing and costs one read and one write (pipelined answers share the write; past
// 100 connections a thread, one epoll_ctl more, so that each is answered in turn), idle
// connections are found by one sweep per thread rather than a timer each, and each thread has
// its own io_context (one acceptor a port deals connections round-robin to the threads, taking
// every waiting connection at each turn).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "target_server/certificate.hpp"

namespace stampede::target_server {

/// HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS unless `serve --max-streams` says otherwise.
inline constexpr std::uint32_t default_max_streams = 1000;
/// How long an HTTP connection may stay silent unless `serve --idle-timeout` says otherwise.
inline constexpr std::chrono::milliseconds default_idle_timeout{60'000};

/// Where and how the target server listens.
struct ServeOptions {
  std::string bind = "127.0.0.1";  ///< address (or host name) to listen on
  unsigned short port = 8080;      ///< 0 picks a free port; Server::port() tells which
  unsigned threads = 1;            ///< threads serving connections; 0 means one per CPU
  /// Close HTTP/1.1 and HTTP/2 connections silent this long; 0: never (a long-connection test
  /// holds them without pings).
  std::chrono::milliseconds idle_timeout = default_idle_timeout;
  /// Share the port with other listeners that set it too (SO_REUSEPORT): `serve --workers`.
  /// Off by default, so that a second server on a port in use fails instead of sharing it.
  bool reuse_port = false;
  /// The TLS port (0 picks a free one; Server::tls_port() tells which); none: no TLS.
  std::optional<unsigned short> tls_port{};
  /// The TLS certificate; empty: the Server makes a self-signed one.
  Certificate certificate{};
  /// The concurrent streams an HTTP/2 connection may open (SETTINGS_MAX_CONCURRENT_STREAMS).
  std::uint32_t max_streams = default_max_streams;
  /// The most requests served at once across the threads; past them, 503. 0: no limit.
  std::uint32_t max_in_flight = 0;
};

/// The ports a server listens on.
struct ListeningPorts {
  unsigned short port = 0;
  unsigned short tls_port = 0;  ///< 0: no TLS
};

/// The target server. Binds on construction, serves in run(), stops on stop().
class Server {
 public:
  /// Binds and listens; throws std::runtime_error ("cannot listen on ADDR:PORT: why") on failure.
  explicit Server(ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The port actually bound (the ephemeral one when options.port was 0).
  [[nodiscard]] unsigned short port() const;
  /// The TLS port actually bound; 0 without TLS.
  [[nodiscard]] unsigned short tls_port() const;

  /// How many connections each thread has taken so far, in thread order (the caller of run()
  /// is the first). Callable from any thread; for tests and diagnostics.
  [[nodiscard]] std::vector<std::uint64_t> connections_per_thread() const;

  /// The requests being served now under options.max_in_flight (always 0 without a limit: they
  /// are not counted). Callable from any thread; for tests and diagnostics.
  [[nodiscard]] std::uint32_t requests_in_flight() const;

  /// Serves on options.threads threads (the caller's among them) until stop(). Call once.
  /// Open connections are closed when the Server is destroyed.
  void run();

  /// Makes run() return soon; callable from any thread, before, during or after run().
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// "host:port" as URLs and messages write it: an IPv6 literal in brackets ("[::1]:8080").
std::string host_port(const std::string& host, unsigned short port);

}  // namespace stampede::target_server
