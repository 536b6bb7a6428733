// ChildProcess: posix_spawnp with its output redirected, and waitpid polled against a deadline.
#include "cmd/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace stampede::cmd {

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& out,
                           const std::string& err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
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
  if (error != 0) {
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
}

ChildProcess::~ChildProcess() {
  if (!status_) stop();
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
