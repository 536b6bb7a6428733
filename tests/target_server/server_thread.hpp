// Test helpers for the target server under many connections: a server thread, the open-file limit.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <thread>
#include <utility>

#include "target_server/server.hpp"

namespace stampede::target_server {

/// A Server running on its own thread, stopped and joined on every way out of a test.
class ServerThread {
 public:
  explicit ServerThread(ServeOptions options)
      : server_(std::move(options)), thread_([this] { server_.run(); }) {}
  ~ServerThread() { server_.stop(); }  // then thread_ joins, then server_ goes
  ServerThread(const ServerThread&) = delete;
  ServerThread& operator=(const ServerThread&) = delete;

  [[nodiscard]] Server& server() { return server_; }

 private:
  Server server_;
  std::jthread thread_;
};

/// Raises this process's soft open-file limit to at least `needed` if the hard limit allows;
/// false if it does not (the default soft limit is often 1,024).
inline bool allow_open_files(rlim_t needed) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  if (limit.rlim_cur >= needed) return true;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed) return false;
  limit.rlim_cur = needed;
  return setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

/// ServeOptions for a test: loopback, a free port, `threads` threads.
inline ServeOptions loopback_options(unsigned threads = 1) {
  ServeOptions options;
  options.port = 0;
  options.threads = threads;
  return options;
}

}  // namespace stampede::target_server
