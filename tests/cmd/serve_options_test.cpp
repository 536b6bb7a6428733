// `stampede serve` command line: ranges of the counts, workers, stray words, and the banner.
#include "cmd/serve_options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

ServeCommand parse_command(std::initializer_list<const char*> words) {
  const std::vector<const char*> args(words);
  return parse_serve_options(args);
}

target::ServeOptions parse(std::initializer_list<const char*> words) {
  return parse_command(words).server;
}

std::string usage_error(std::initializer_list<const char*> words) {
  try {
    (void)parse(words);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

const std::string usage =
    " (usage: stampede serve [--port 8080] [--bind 127.0.0.1] [--threads N] [--workers N])";

TEST(ServeOptions, ReadsEveryFlag) {
  const auto o = parse({"--port", "9000", "--bind", "::1", "--threads", "3"});
  EXPECT_EQ(o.port, 9000);
  EXPECT_EQ(o.bind, "::1");
  EXPECT_EQ(o.threads, 3U);
  EXPECT_EQ(parse({"-port=0"}).port, 0);  // a free port, as Server binds it
  EXPECT_EQ(parse({"--port", "65535", "--threads", "1024"}).threads, 1024U);
  EXPECT_EQ(parse({}).port, 8080);
  EXPECT_GE(parse({}).threads, 1U);
}

TEST(ServeOptions, RefusesCountsOutOfRange) {
  const std::string threads = "--threads must be between 1 and 1024" + usage;
  EXPECT_EQ(usage_error({"--threads", "-1"}), threads);  // was read as 4,294,967,295
  EXPECT_EQ(usage_error({"--threads", "0"}), threads);
  EXPECT_EQ(usage_error({"--threads", "1025"}), threads);
  EXPECT_EQ(usage_error({"--threads=4294967297"}), threads);
  const std::string port = "--port must be between 0 (any free port) and 65535" + usage;
  EXPECT_EQ(usage_error({"--port", "-1"}), port);
  EXPECT_EQ(usage_error({"--port", "65536"}), port);
  EXPECT_EQ(usage_error({"--threads", "two"}),
            "the argument ('two') for option '--threads' is invalid" + usage);
}

TEST(ServeOptions, ReadsWorkersAndSharesTheCoresAmongThem) {
  EXPECT_EQ(parse_command({}).workers, 1U);
  const auto two = parse_command({"--workers", "2", "--port", "0"});
  EXPECT_EQ(two.workers, 2U);
  EXPECT_EQ(two.server.port, 0);        // port 0 with workers: the parent picks one port for all
  EXPECT_FALSE(two.server.reuse_port);  // serve_in_workers sets it, after binding alone
  const auto cores = std::max(1U, std::thread::hardware_concurrency());
  EXPECT_EQ(parse_command({}).server.threads, cores);
  EXPECT_EQ(two.server.threads, std::max(1U, cores / 2));
  EXPECT_EQ(parse_command({"--workers=64"}).server.threads, std::max(1U, cores / 64));
  const auto both = parse_command({"-workers", "3", "--threads", "4"});
  EXPECT_EQ(both.workers, 3U);
  EXPECT_EQ(both.server.threads, 4U);  // --threads counts per worker
}

TEST(ServeOptions, RefusesWorkersOutOfRange) {
  const std::string workers = "--workers must be between 1 and 64" + usage;
  EXPECT_EQ(usage_error({"--workers", "0"}), workers);
  EXPECT_EQ(usage_error({"--workers", "-1"}), workers);
  EXPECT_EQ(usage_error({"--workers", "65"}), workers);
  EXPECT_EQ(usage_error({"--workers=4294967298"}), workers);
  EXPECT_EQ(usage_error({"--workers", "many"}),
            "the argument ('many') for option '--workers' is invalid" + usage);
  EXPECT_EQ(usage_error({"--workers"}),
            "the required argument for option '--workers' is missing" + usage);
}

TEST(ServeOptions, RefusesStrayWordsAndUnknownFlags) {
  EXPECT_EQ(usage_error({"extra"}), "unexpected argument 'extra'" + usage);
  EXPECT_EQ(usage_error({"--port", "9000", "8080"}), "unexpected argument '8080'" + usage);
  EXPECT_EQ(usage_error({"--verbose"}), "unrecognised option '--verbose'" + usage);
}

TEST(ServeOptions, BannerBracketsIpv6AndCountsThreadsAndWorkers) {
  ServeCommand command;
  command.server.bind = "::1";
  command.server.threads = 1;
  EXPECT_EQ(serve_banner(command, 18099),
            "stampede serve: listening on http://[::1]:18099/ (1 thread; Ctrl-C stops)");
  command.server.bind = "127.0.0.1";
  command.server.threads = 4;
  EXPECT_EQ(serve_banner(command, 8080),
            "stampede serve: listening on http://127.0.0.1:8080/ (4 threads; Ctrl-C stops)");
  command.workers = 2;
  command.server.threads = 1;
  EXPECT_EQ(serve_banner(command, 8080),
            "stampede serve: listening on http://127.0.0.1:8080/ (2 workers sharing the port, 1 "
            "thread each; Ctrl-C stops)");
}

}  // namespace
}  // namespace stampede::cmd
