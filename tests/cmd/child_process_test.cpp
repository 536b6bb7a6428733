// ChildProcess: output in files, a deadline, and a child told a line once it asks on stderr.
#include "cmd/child_process.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace stampede::cmd {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

/// A file's whole text.
std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class ChildProcessTest : public testing::Test {
 protected:
  void SetUp() override {
    std::signal(SIGPIPE, SIG_IGN);  // as `stampede shards` does: tell() may find its reader gone
    dir_ = std::filesystem::temp_directory_path() /
           ("stampede_child_process_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// `sh -c script`, talked with, its output in out.txt and err.txt.
  ChildProcess shell(const std::string& script) {
    return {{"sh", "-c", script}, (dir_ / "out.txt").string(), (dir_ / "err.txt").string(), true};
  }

  /// Pumps `child`'s stderr until it has said `word` (or 10 s have passed).
  static std::string hear(ChildProcess& child, const std::string& word) {
    std::string heard;
    for (const auto give_up = Clock::now() + 10s;
         heard.find(word) == std::string::npos && Clock::now() < give_up;) {
      heard += child.pump();
    }
    return heard;
  }

  std::filesystem::path dir_;
};

TEST_F(ChildProcessTest, IsToldALineOnceItAsks) {
  auto child = shell("echo ready >&2; read line; echo \"got $line\"; echo done >&2");
  EXPECT_EQ(hear(child, "ready"), "ready\n");
  child.tell("the time\n");
  EXPECT_EQ(child.wait_until(Clock::now() + 10s), 0);
  EXPECT_EQ(text_of(dir_ / "out.txt"), "got the time\n");
  (void)child.pump();
  EXPECT_EQ(text_of(dir_ / "err.txt"), "ready\ndone\n");  // its stderr passes on to its file
}

TEST_F(ChildProcessTest, NotToldItReadsTheEndOfItsInput) {
  auto child = shell("read line || exit 7");
  child.tell("");
  EXPECT_EQ(child.wait_until(Clock::now() + 10s), 7);
}

TEST_F(ChildProcessTest, TellingOneThatEndedIsNoError) {
  auto child = shell("exit 3");
  EXPECT_EQ(child.wait_until(Clock::now() + 10s), 3);
  child.tell("too late\n");  // its stdin's reader is gone: EPIPE
  EXPECT_EQ(child.pump(), "");
}

TEST_F(ChildProcessTest, StillRunningAtTheDeadlineIsStopped) {
  auto child = shell("sleep 30");
  EXPECT_FALSE(child.wait_until(Clock::now() + 100ms));
  child.stop();
  EXPECT_EQ(child.wait_until(Clock::now()), 128 + 15);  // SIGTERM
}

}  // namespace
}  // namespace stampede::cmd
