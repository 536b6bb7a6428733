// The built-in target server behind `stampede serve`: a fast HTTP/1.1 server for demos and tests.
//
// Routes (every method is answered; HEAD gets the head only; query strings are ignored):
//   /                200 text/plain "hello stampede\n"
//   /json            200 application/json {"code":200,"msg":"ok"}
//   /status/{code}   that status (200..599; anything else is 400), body "<reason phrase>\n"
//                    (204 and 304 have no body)
//   /delay/{ms}      200 "hello stampede\n" after ms milliseconds (capped at 60000)
//   /bytes/{n}       200 application/octet-stream, n bytes of 'x' (n at most 100 MiB; a larger
//                    n gets 400 with a body saying so)
//   /echo            WebSocket (websocket.hpp): each message sent back, text as text, binary as
//                    binary
//   /acc             WebSocket: go-stress-testing's ping, {"seq":"S","cmd":"ping","data":{}},
//                    answered {"seq":"S","cmd":"ping","response":{"code":200,"codeMsg":"Success",
//                    "data":null}}; anything else gets code 400 or 404 (acc.hpp)
//   anything else    404
// Every response carries "Server: stampede/0.1.0" and Content-Length (except 204 and 304).
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
// 431, both followed by a close. HTTP connections idle for idle_timeout are closed.
//
// Made to stay out of the way of the load it receives: responses are pre-built, a request
// allocates nothing and costs one read and one write (pipelined answers share the write; past
// 100 connections a thread, one epoll_ctl more, so that each is answered in turn), idle
// connections are found by one sweep per thread rather than a timer each, and each thread has
// its own io_context (one acceptor deals connections round-robin to the threads, taking every
// waiting connection at each turn).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stampede::target {

/// Where and how the target server listens.
struct ServeOptions {
  std::string bind = "127.0.0.1";  ///< address (or host name) to listen on
  unsigned short port = 8080;      ///< 0 picks a free port; Server::port() tells which
  unsigned threads = 1;            ///< threads serving connections; 0 means one per CPU
  std::chrono::milliseconds idle_timeout{60'000};  ///< close HTTP connections silent this long
  /// Share the port with other listeners that set it too (SO_REUSEPORT): `serve --workers`.
  /// Off by default, so that a second server on a port in use fails instead of sharing it.
  bool reuse_port = false;
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

  /// How many connections each thread has taken so far, in thread order (the caller of run()
  /// is the first). Callable from any thread; for tests and diagnostics.
  [[nodiscard]] std::vector<std::uint64_t> connections_per_thread() const;

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

}  // namespace stampede::target
