// ChildProcess: posix_spawnp with its output redirected, and waitpid polled against a deadline.
// Its pipes (talk) are raw descriptors: a child's stderr is read as it comes, never blocking.
#include "cmd/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace stampede::cmd {

namespace {

/// A pipe whose ends close on exec (the child gets its end by dup2, which keeps it open).
std::array<int, 2> cloexec_pipe() {
  std::array<int, 2> ends{-1, -1};
  if (pipe2(ends.data(), O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  return ends;
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& out,
                           const std::string& err, bool talk) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::array<int, 2> in{-1, -1};
  std::array<int, 2> errors{-1, -1};
  if (talk) {
    in = cloexec_pipe();
    errors = cloexec_pipe();
    err_file_ = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (err_file_ < 0)
      throw std::runtime_error("cannot write " + err + ": " + std::strerror(errno));
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  std::vector<char*> words;
  words.reserve(argv.size() + 1);
  for (const auto& word : argv) words.push_back(const_cast<char*>(word.c_str()));
  words.push_back(nullptr);
  // Its own process group: a Ctrl-C at the terminal reaches only us, who decide what it stops.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int error = posix_spawnp(&pid_, words[0], &actions, &attributes, words.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close_fd(in[0]);
  close_fd(errors[1]);
  stdin_ = in[1];
  stderr_ = errors[0];
  if (stderr_ >= 0) fcntl(stderr_, F_SETFL, O_NONBLOCK);
  if (error != 0) {
    close_fd(stdin_);
    close_fd(stderr_);
    close_fd(err_file_);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
}

ChildProcess::~ChildProcess() {
  if (!status_) stop();
  (void)pump();  // the last it said, into its file
  close_fd(stdin_);
  close_fd(stderr_);
  close_fd(err_file_);
}

void ChildProcess::tell(std::string_view line) {
  // A child gone meanwhile closed its end: EPIPE (SIGPIPE is ignored by the caller), not a crash.
  while (!line.empty() && stdin_ >= 0) {
    const auto wrote = write(stdin_, line.data(), line.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) break;
    line.remove_prefix(static_cast<std::size_t>(wrote));
  }
  close_fd(stdin_);
}

std::string ChildProcess::pump() {
  std::string said;
  std::array<char, 4096> buffer{};
  while (stderr_ >= 0) {
    const auto got = read(stderr_, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;  // EAGAIN: nothing more for now
    if (got == 0) {
      close_fd(stderr_);  // it closed its stderr: it has ended
      break;
    }
    said.append(buffer.data(), static_cast<std::size_t>(got));
  }
  for (std::size_t at = 0; err_file_ >= 0 && at < said.size();) {
    const auto wrote = write(err_file_, said.data() + at, said.size() - at);
    if (wrote <= 0) break;
    at += static_cast<std::size_t>(wrote);
  }
  return said;
}

std::optional<int> ChildProcess::wait_until(std::chrono::steady_clock::time_point deadline) {
  while (!status_) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) {
      status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return status_;
}

void ChildProcess::stop() {
  if (status_) return;
  kill(pid_, SIGTERM);
  if (wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(1))) return;
  kill(pid_, SIGKILL);
  (void)wait_until(std::chrono::steady_clock::time_point::max());
}

}  // namespace stampede::cmd
