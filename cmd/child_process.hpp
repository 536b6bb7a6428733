// ChildProcess: a program started with its output in files, waited for with a deadline
// (`stampede shards` runs one ssh a host).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace stampede::cmd {

/// One child: started at once, ended by wait_until() or stop(); never left running.
class ChildProcess {
 public:
  /// Starts `argv` (found in PATH) in a process group of its own, its stdin /dev/null, stdout
  /// and stderr into the files `out` and `err` (created or emptied). Throws std::runtime_error when
  /// it cannot start.
  ChildProcess(const std::vector<std::string>& argv, const std::string& out,
               const std::string& err);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Its exit status (128 + N when signal N ended it) once it has ended, or nothing if it is
  /// still running at `deadline`.
  std::optional<int> wait_until(std::chrono::steady_clock::time_point deadline);
  /// SIGTERM, then SIGKILL after a second; returns when it has ended.
  void stop();

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

}  // namespace stampede::cmd
