// Serving until a stop signal, from this process or from forked workers sharing one port.
//
// Why processes and not more threads: a process may hold at most its hard RLIMIT_NOFILE
// descriptors (20,000 on the machine this was written on), about one generator's worth of
// connections. N workers each have their own budget. Why fork without exec: the parent forks
// before any thread exists, and the child only builds its own Server.
#include "target_server/workers.hpp"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>

#include "target_server/listener.hpp"

namespace stampede::target_server {
namespace {

using Clock = std::chrono::steady_clock;

/// How long stopped workers get to close their connections before SIGKILL.
constexpr std::chrono::seconds stop_grace{10};
constexpr std::chrono::milliseconds reap_poll{10};

/// A worker tells the parent it listens with this byte, or that it cannot with a line
/// "-why\n": one write each, shorter than PIPE_BUF, so lines from several workers never mix.
constexpr char ready_mark = '+';
constexpr char failure_mark = '-';

void tell(int fd, const std::string& text) {
  const auto written = write(fd, text.data(), text.size());
  static_cast<void>(written);  // the parent gone: nobody to tell
}

/// A forked worker: serves until a stop signal, then ends the process without returning.
[[noreturn]] void run_worker(const ServeOptions& options, int ready_fd, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);        // no orphans if the parent is killed
  if (getppid() != parent) std::_Exit(1);  // it died before prctl
  raise_open_file_limit();
  std::optional<Server> server;
  try {
    server.emplace(options);
  } catch (const std::exception& error) {
    tell(ready_fd, failure_mark + std::string(error.what()).substr(0, 500) + "\n");
    std::_Exit(1);
  }
  tell(ready_fd, std::string(1, ready_mark));
  close(ready_fd);
  serve_until_stopped(*server);
  server.reset();
  // _Exit: this copy of the parent must not run the parent's exit handlers (atexit, statics).
  std::fflush(nullptr);
  std::_Exit(0);
}

/// Reads the workers' reports until all `workers` listen; the first failure's text otherwise.
std::string await_listening(int fd, unsigned workers) {
  std::string said;
  std::size_t at = 0;
  unsigned ready = 0;
  while (ready < workers) {
    if (at < said.size() && said[at] == ready_mark) {
      ++ready;
      ++at;
      continue;
    }
    if (at < said.size()) {  // a failure line, whole once its newline is in
      const auto end = said.find('\n', at);
      if (end != std::string::npos) return said.substr(at + 1, end - at - 1);
    }
    char chunk[512];
    const auto got = read(fd, chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return "a serve worker ended before it listened";
    said.append(chunk, static_cast<std::size_t>(got));
  }
  return {};
}

/// Waits until `pid` ends, at most until `deadline`; its wait status, or nothing.
std::optional<int> reap(pid_t pid, Clock::time_point deadline) {
  for (;;) {
    int status = 0;
    const auto ended = waitpid(pid, &status, WNOHANG);
    if (ended == pid) return status;
    if (ended < 0 && errno != EINTR) return 0;  // not ours to wait for any more
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(reap_poll);
  }
}

/// Stops every worker still running (SIGTERM, SIGKILL past stop_grace) and waits for each.
void stop_workers(const std::vector<pid_t>& workers) {
  for (const auto pid : workers) kill(pid, SIGTERM);
  const auto deadline = Clock::now() + stop_grace;
  for (const auto pid : workers) {
    if (reap(pid, deadline)) continue;
    spdlog::warn("serve: worker {} did not stop in {} s; killing it", pid, stop_grace.count());
    kill(pid, SIGKILL);
    static_cast<void>(reap(pid, Clock::time_point::max()));
  }
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

/// Waits for a stop signal or for a worker to end; stops the rest. Returns the exit status.
int supervise(std::vector<pid_t> workers) {
  const auto signals = serve_signals();
  for (;;) {
    int received = 0;
    if (sigwait(&signals, &received) != 0) continue;
    if (received != SIGCHLD) break;
    int status = 0;
    const auto pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) continue;  // not a worker's end after all
    std::erase(workers, pid);
    const bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    if (failed)
      spdlog::error("serve: worker {} {}; stopping the others", pid, describe_status(status));
    stop_workers(workers);
    return failed ? 1 : 0;
  }
  stop_workers(workers);
  return 0;
}

/// The ports bound here alone, without listening, before the workers bind them: a port in use
/// fails here, and port 0 picks the port. SO_REUSEADDR (set on every listener) lets the
/// workers bind beside a socket that does not listen; SO_REUSEPORT lets them bind beside each
/// other.
class ReservedPorts {
 public:
  /// Binds options' ports and rewrites `options` for the workers: the ports bound, SO_REUSEPORT,
  /// and with TLS a certificate (one for all: a client meets the same whichever worker it
  /// reaches).
  ReservedPorts(boost::asio::io_context& context, ServeOptions& options)
      : port_(reserve(context, options, options.port)) {
    if (options.tls_port) {
      tls_port_.emplace(reserve(context, options, *options.tls_port));
      if (options.certificate.empty()) options.certificate = make_self_signed_certificate();
    }
    options.reuse_port = true;
  }

  /// In a forked worker: its copies of the sockets must not keep the ports bound.
  void close_in_worker() {
    ::close(port_.native_handle());
    if (tls_port_) ::close(tls_port_->native_handle());
  }

  /// Once the workers listen.
  void close() {
    port_.close();
    if (tls_port_) tls_port_->close();
  }

 private:
  /// Binds `port` (options.port or *options.tls_port) and sets it to the port bound.
  static boost::asio::ip::tcp::acceptor reserve(boost::asio::io_context& context,
                                                ServeOptions& options, unsigned short& port) {
    auto alone = options;
    alone.port = port;
    alone.reuse_port = false;
    auto acceptor = bind_port(context, alone);
    port = acceptor.local_endpoint().port();
    return acceptor;
  }

  boost::asio::ip::tcp::acceptor port_;
  std::optional<boost::asio::ip::tcp::acceptor> tls_port_;
};

}  // namespace

sigset_t serve_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGCHLD);
  return signals;
}

std::uint64_t raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur;
}

void serve_until_stopped(Server& server) {
  std::thread serving([&server] { server.run(); });
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  int received = 0;
  sigwait(&stop, &received);  // fails only for an invalid set
  server.stop();
  serving.join();
}

int serve_in_workers(ServeOptions options, unsigned workers,
                     const std::function<void(const ListeningPorts& ports)>& on_listening) {
  boost::asio::io_context context;
  ReservedPorts reserved(context, options);
  int ready[2];
  if (pipe(ready) != 0) throw std::runtime_error("cannot start serve workers: no pipe");
  std::fflush(nullptr);  // or the workers would print what is buffered again
  const pid_t parent = getpid();
  std::vector<pid_t> pids;
  for (unsigned i = 0; i < workers; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      close(ready[0]);
      reserved.close_in_worker();
      run_worker(options, ready[1], parent);
    }
    if (pid < 0) break;
    pids.push_back(pid);
  }
  close(ready[1]);
  auto failure = pids.size() < workers ? std::string("cannot fork a serve worker")
                                       : await_listening(ready[0], workers);
  close(ready[0]);
  reserved.close();
  if (!failure.empty()) {
    stop_workers(pids);
    throw std::runtime_error(failure);
  }
  on_listening({.port = options.port, .tls_port = options.tls_port.value_or(0)});
  return supervise(std::move(pids));
}

}  // namespace stampede::target_server
