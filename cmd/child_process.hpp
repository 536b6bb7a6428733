// ChildProcess: a program started with its output in files, waited for with a deadline, and
// told a line on its stdin once it asks (`stampede shards` runs one ssh a host).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede::cmd {

/// One child: started at once, ended by wait_until() or stop(); never left running.
class ChildProcess {
 public:
  /// Starts `argv` (found in PATH) in a process group of its own, its stdout and stderr into
  /// the files `out` and `err` (created or emptied). Its stdin is /dev/null, or with `talk` a
  /// pipe for tell(), and its stderr then passes through us (pump()) on its way to `err`.
  /// Throws std::runtime_error when it cannot start.
  ChildProcess(const std::vector<std::string>& argv, const std::string& out, const std::string& err,
               bool talk = false);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Its exit status (128 + N when signal N ended it) once it has ended, or nothing if it is
  /// still running at `deadline`.
  std::optional<int> wait_until(std::chrono::steady_clock::time_point deadline);
  /// SIGTERM, then SIGKILL after a second; returns when it has ended.
  void stop();

  /// With `talk`: writes `line` to its stdin and closes it (an empty `line` only closes it).
  /// A child that has ended gives EPIPE, and SIGPIPE, which the caller ignores.
  void tell(std::string_view line);
  /// With `talk`: what its stderr said since the last pump(), now also in `err`; never blocks.
  std::string pump();
  /// With `talk`, while its stderr is open: the descriptor to poll() for pump(); else -1.
  [[nodiscard]] int stderr_fd() const { return stderr_; }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  int stdin_ = -1;     ///< talk: the pipe's end we write
  int stderr_ = -1;    ///< talk: the pipe's end we read
  int err_file_ = -1;  ///< talk: `err`, where pump() puts what it read
};

}  // namespace stampede::cmd
