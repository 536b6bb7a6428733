// run_shards(): `stampede shards`: start each host's shard over ssh with one --start-at, wait,
// bring their saved runs back, and merge and judge them as `stampede report` does.
#include <poll.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cmd/child_process.hpp"
#include "cmd/commands.hpp"
#include "cmd/help.hpp"
#include "cmd/options.hpp"
#include "cmd/shard_flags.hpp"
#include "cmd/shards_options.hpp"

namespace stampede::cmd {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::system_clock;

/// `word` quoted for a POSIX shell: the remote side runs ssh's command through one.
std::string shell_quoted(const std::string& word) {
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string(R"('\'')") : std::string(1, c);
  return quoted + "'";
}

/// A fresh run id: the shards of this run, and no other, carry it.
std::string random_run_id() {
  std::random_device random;
  std::string id;
  for (int i = 0; i < 3; ++i) {
    std::array<char, 9> hex{};
    std::snprintf(hex.data(), hex.size(), "%08x", random());
    id += std::string(hex.data()).substr(0, 4);
  }
  return id;
}

/// `at` as RFC 3339 in UTC, to the millisecond (or the microsecond, `micro`).
std::string rfc3339(system_clock::time_point at, bool micro = false) {
  const auto seconds = system_clock::to_time_t(at);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%S", &utc);
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(at.time_since_epoch()) %
                  std::chrono::seconds(1);
  std::array<char, 16> fraction{};
  if (micro) {
    std::snprintf(fraction.data(), fraction.size(), ".%06dZ", static_cast<int>(us.count()));
  } else {
    std::snprintf(fraction.data(), fraction.size(), ".%03dZ", static_cast<int>(us.count() / 1000));
  }
  return std::string(text.data()) + fraction.data();
}

/// `--shard I/N`, as the shard's command line has it (I counts from 1).
std::string shard_flag(const ShardsCommand& command, std::size_t index) {
  return "--shard " + std::to_string(index + 1) + "/" + std::to_string(command.hosts.size());
}

/// Where shard `index`'s files go in --dir, less their extension: shard-1 is --shard 1/N's.
std::string shard_base(const std::string& dir, std::size_t index) {
  return dir + "/shard-" + std::to_string(index + 1);
}

/// Where the ssh that interrupts shard `index` writes its errors.
std::string interrupt_errors(const std::string& dir, std::size_t index) {
  return dir + "/interrupt-" + std::to_string(index + 1) + ".err";
}

/// What a shard's remote shell says on stderr once its ssh is up, before it reads the time.
constexpr std::string_view ready_word = "stampede-shard-ready";

/// The ssh command that runs shard `index` on `host` and prints its saved run on stdout (its
/// report goes nowhere: the merged one is printed here; its errors come back on stderr). Once
/// its ssh is up it asks the time, and is told it by this clock (--told-at: so the time from the
/// telling to the shard is one way over a connection already made, and what it records is
/// mostly how far its own clock is off); not told (a Ctrl-C here), it ends before it runs.
std::vector<std::string> shard_command(const ShardsCommand& command, std::size_t index,
                                       const std::string& run, const std::string& start_at) {
  std::string remote = "echo " + std::string(ready_word) +
                       " >&2; read told || { echo 'stampede: stopped before it was told to "
                       "start' >&2; exit 1; }; ";
  remote += "f=\"${TMPDIR:-/tmp}/stampede-" + run + "-" + std::to_string(index + 1) +
            ".stampede\"; " + shell_quoted(command.remote_stampede);
  for (const auto& word : command.load_args) remote += " " + shell_quoted(word);
  remote += " " + shard_flag(command, index) + " --start-at " + start_at +
            R"( --told-at "$told" --run-id )" + run +
            R"( --save "$f" >/dev/null; rc=$?; cat "$f" 2>/dev/null; rm -f "$f"; exit $rc)";
  auto argv = command.ssh;
  argv.insert(argv.end(), {"-o", "BatchMode=yes", command.hosts[index], remote});
  return argv;
}

/// The last line of a shard's stderr, to name why it failed.
std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? "no message" : last;
}

/// The file `path` holds something: a shard's run came back.
bool holds_a_run(const std::string& path) {
  std::error_code error;
  return std::filesystem::file_size(path, error) > 0 && !error;
}

/// SIGINT or SIGTERM, once caught: the shards are to stop.
/// What the shards write into `dir`: the merged run's outputs must not be among them.
std::vector<NamedFile> shard_files(const std::string& dir, std::size_t count) {
  std::vector<NamedFile> files;
  for (std::size_t i = 0; i < count; ++i) {
    const auto shard = "shard " + std::to_string(i + 1) + "'s ";
    const auto base = shard_base(dir, i);
    files.push_back({shard + "saved run", base + ".stampede"});
    files.push_back({shard + "errors", base + ".err"});
    files.push_back({shard + "interrupt's errors", interrupt_errors(dir, i)});
  }
  return files;
}

volatile std::sig_atomic_t stop_signal = 0;
extern "C" void note_stop(int signal) { stop_signal = signal; }

/// Ctrl-C: each host's shard gets SIGINT, found by its --shard and the run id on its command line
/// (so one SIGINT each, when hosts share a machine; `[/]` so that the pattern does not match the
/// shell that runs pkill), and ends as a stopped run does: its report, and its saved run back on
/// its ssh. Waits 10 s at most for the ssh's that send it.
void interrupt_shards(const ShardsCommand& command, const std::string& run,
                      const std::string& dir) {
  std::vector<std::unique_ptr<ChildProcess>> senders;
  for (std::size_t i = 0; i < command.hosts.size(); ++i) {
    auto argv = command.ssh;
    argv.insert(argv.end(),
                {"-o", "BatchMode=yes", command.hosts[i],
                 "pkill -INT -f -- " +
                     shell_quoted(shard_flag(command, i) + " .*--run-id " + run + " --save [/]")});
    senders.push_back(std::make_unique<ChildProcess>(argv, "/dev/null", interrupt_errors(dir, i)));
  }
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  for (auto& sender : senders) (void)sender->wait_until(give_up);
}

/// A host's shard: its ssh, what it said until it asked the time, and whether it was told.
struct ShardHost {
  std::unique_ptr<ChildProcess> ssh;
  std::string heard;
  bool told = false;
};

/// Waits up to 50 ms (less before `deadline`) for some shard's stderr to say something.
void await_words(const std::vector<ShardHost>& hosts, Clock::time_point deadline) {
  std::vector<pollfd> fds;
  for (const auto& host : hosts) {
    if (host.ssh->stderr_fd() >= 0) fds.push_back({host.ssh->stderr_fd(), POLLIN, 0});
  }
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  (void)poll(fds.data(), fds.size(),
             static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 50)));
}

/// Tells each shard that asks the time (its ssh is up) this clock's time, at once.
void tell_the_time(std::vector<ShardHost>& hosts) {
  for (auto& host : hosts) {
    const auto said = host.ssh->pump();
    if (host.told) continue;
    host.heard += said;
    if (host.heard.find(ready_word) == std::string::npos) continue;
    host.ssh->tell(rfc3339(system_clock::now(), true) + "\n");
    host.told = true;
  }
}

/// Each shard's exit status, or nothing for one still running at --wait's end (then stopped).
/// A first Ctrl-C (or SIGTERM) interrupts the shards (those not yet told the time end before
/// they run) and gives them 30 s more to bring their runs back; a second stops the waiting.
std::vector<std::optional<int>> wait_for_shards(const ShardsCommand& command,
                                                const std::string& run, const std::string& dir,
                                                std::vector<ShardHost>& hosts) {
  auto deadline =
      command.wait ? Clock::now() + command.lead + *command.wait : Clock::time_point::max();
  std::vector<std::optional<int>> statuses(hosts.size());
  bool interrupted = false;
  while (Clock::now() < deadline) {
    tell_the_time(hosts);
    std::size_t running = 0;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      statuses[i] = hosts[i].ssh->wait_until(Clock::now());
      if (!statuses[i]) ++running;
    }
    if (running == 0) break;
    if (stop_signal != 0 && !interrupted) {
      std::fprintf(stderr, "stampede: stopping the shards (a second Ctrl-C stops waiting)\n");
      interrupted = true;
      stop_signal = 0;
      for (auto& host : hosts) {
        if (!host.told) host.ssh->tell("");
        host.told = true;
      }
      interrupt_shards(command, run, dir);
      deadline = std::min(deadline, Clock::now() + std::chrono::seconds(30));
    } else if (stop_signal != 0) {
      break;
    }
    await_words(hosts, deadline);
  }
  for (auto& host : hosts) {
    host.ssh->stop();        // those still running
    (void)host.ssh->pump();  // the last they said, for last_line()
  }
  return statuses;
}

}  // namespace

int run_shards(std::span<const char* const> args) {
  const auto command = parse_shards_options(args);
  if (command.help) {
    std::fputs(command_help(shards_command_doc()).c_str(), stdout);
    return 0;
  }
  if (command.hosts.size() > max_shards) {
    throw UsageError("--hosts names more than " + std::to_string(max_shards) + " hosts");
  }
  const auto run = random_run_id();
  const auto dir = command.dir.empty() ? "stampede-shards-" + run : command.dir;
  refuse_clashes(command.report_outputs, shard_files(dir, command.hosts.size()));
  std::filesystem::create_directories(dir);
  const auto start_at = rfc3339(system_clock::now() + command.lead);
  std::fprintf(stderr, "stampede: run %s: %zu shards starting at %s; their runs go to %s/\n",
               run.c_str(), command.hosts.size(), start_at.c_str(), dir.c_str());
  std::signal(SIGINT, note_stop);
  std::signal(SIGTERM, note_stop);
  std::signal(SIGPIPE, SIG_IGN);  // telling an ssh that has just ended is no error
  std::vector<ShardHost> hosts;
  for (std::size_t i = 0; i < command.hosts.size(); ++i) {
    const auto base = shard_base(dir, i);
    hosts.push_back({std::make_unique<ChildProcess>(shard_command(command, i, run, start_at),
                                                    base + ".stampede", base + ".err", true),
                     {},
                     false});
  }
  const auto statuses = wait_for_shards(command, run, dir, hosts);
  auto report_args = command.report_args;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const auto base = shard_base(dir, i);
    const auto& host = command.hosts[i];
    if (!statuses[i]) {
      std::fprintf(stderr, "stampede: host %s (shard %zu) did not end within --wait: stopped\n",
                   host.c_str(), i + 1);
    } else if ((*statuses[i] == 0 || *statuses[i] == exit_threshold_failed) &&
               holds_a_run(base + ".stampede")) {
      report_args.push_back(base + ".stampede");
    } else {
      std::fprintf(stderr, "stampede: host %s (shard %zu) failed (exit %d): %s\n", host.c_str(),
                   i + 1, *statuses[i], last_line(base + ".err").c_str());
    }
  }
  if (report_args.size() == command.report_args.size()) {
    throw std::runtime_error("no shard ran (see each host's error above)");
  }
  return run_report(argv_of(report_args));
}

}  // namespace stampede::cmd
