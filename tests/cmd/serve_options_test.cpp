// `stampede serve` command line: ranges of the counts, stray words, and the banner it prints.
#include "cmd/serve_options.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

target::ServeOptions parse(std::initializer_list<const char*> words) {
  const std::vector<const char*> args(words);
  return parse_serve_options(args);
}

std::string usage_error(std::initializer_list<const char*> words) {
  try {
    (void)parse(words);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

const std::string usage = " (usage: stampede serve [--port 8080] [--bind 127.0.0.1] [--threads N])";

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

TEST(ServeOptions, RefusesStrayWordsAndUnknownFlags) {
  EXPECT_EQ(usage_error({"extra"}), "unexpected argument 'extra'" + usage);
  EXPECT_EQ(usage_error({"--port", "9000", "8080"}), "unexpected argument '8080'" + usage);
  EXPECT_EQ(usage_error({"--verbose"}), "unrecognised option '--verbose'" + usage);
}

TEST(ServeOptions, BannerBracketsIpv6AndCountsThreads) {
  target::ServeOptions options;
  options.bind = "::1";
  options.threads = 1;
  EXPECT_EQ(serve_banner(options, 18099),
            "stampede serve: listening on http://[::1]:18099/ (1 thread; Ctrl-C stops)");
  options.bind = "127.0.0.1";
  options.threads = 4;
  EXPECT_EQ(serve_banner(options, 8080),
            "stampede serve: listening on http://127.0.0.1:8080/ (4 threads; Ctrl-C stops)");
}

}  // namespace
}  // namespace stampede::cmd
