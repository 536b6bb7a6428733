// `stampede serve` command line: ranges of the counts, workers, the idle timeout, the in-flight
// limit, stray words, and the banner.
#include "cmd/serve_options.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "cmd/options.hpp"
#include "target_server/certificate.hpp"

namespace stampede::cmd {
namespace {

ServeCommand parse_command(std::initializer_list<const char*> words) {
  const std::vector<const char*> args(words);
  return parse_serve_options(args);
}

target_server::ServeOptions parse_serve(std::initializer_list<const char*> words) {
  return parse_command(words).server;
}

std::string serve_usage_error(std::initializer_list<const char*> words) {
  try {
    (void)parse_serve(words);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

const std::string usage = " (see stampede serve --help)";

TEST(ServeOptions, ReadsEveryFlag) {
  const auto o = parse_serve({"--port", "9000", "--bind", "::1", "--threads", "3"});
  EXPECT_EQ(o.port, 9000);
  EXPECT_EQ(o.bind, "::1");
  EXPECT_EQ(o.threads, 3U);
  EXPECT_EQ(parse_serve({"-port=0"}).port, 0);  // a free port, as Server binds it
  EXPECT_EQ(parse_serve({"--port", "65535", "--threads", "1024"}).threads, 1024U);
  EXPECT_EQ(parse_serve({}).port, 8080);
  EXPECT_GE(parse_serve({}).threads, 1U);
}

TEST(ServeOptions, RefusesCountsOutOfRange) {
  const std::string threads = "--threads must be between 1 and 1024" + usage;
  EXPECT_EQ(serve_usage_error({"--threads", "-1"}), threads);  // was read as 4,294,967,295
  EXPECT_EQ(serve_usage_error({"--threads", "0"}), threads);
  EXPECT_EQ(serve_usage_error({"--threads", "1025"}), threads);
  EXPECT_EQ(serve_usage_error({"--threads=4294967297"}), threads);
  const std::string port = "--port must be between 0 (any free port) and 65535" + usage;
  EXPECT_EQ(serve_usage_error({"--port", "-1"}), port);
  EXPECT_EQ(serve_usage_error({"--port", "65536"}), port);
  EXPECT_EQ(serve_usage_error({"--threads", "two"}), threads);
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
  EXPECT_EQ(serve_usage_error({"--workers", "0"}), workers);
  EXPECT_EQ(serve_usage_error({"--workers", "-1"}), workers);
  EXPECT_EQ(serve_usage_error({"--workers", "65"}), workers);
  EXPECT_EQ(serve_usage_error({"--workers=4294967298"}), workers);
  EXPECT_EQ(serve_usage_error({"--workers", "many"}), workers);
  EXPECT_EQ(serve_usage_error({"--workers"}), "flag --workers needs a value" + usage);
}

TEST(ServeOptions, RefusesStrayWordsAndUnknownFlags) {
  EXPECT_EQ(serve_usage_error({"extra"}), "unexpected argument 'extra'" + usage);
  EXPECT_EQ(serve_usage_error({"--port", "9000", "8080"}), "unexpected argument '8080'" + usage);
  EXPECT_EQ(serve_usage_error({"--verbose"}), "unknown flag '--verbose'" + usage);
}

TEST(ServeOptions, BannerBracketsIpv6AndCountsThreadsAndWorkers) {
  ServeCommand command;
  command.server.bind = "::1";
  command.server.threads = 1;
  EXPECT_EQ(serve_banner(command, {.port = 18099}),
            "stampede serve: listening on http://[::1]:18099/ (1 thread; Ctrl-C stops)");
  command.server.bind = "127.0.0.1";
  command.server.threads = 4;
  EXPECT_EQ(serve_banner(command, {.port = 8080}),
            "stampede serve: listening on http://127.0.0.1:8080/ (4 threads; Ctrl-C stops)");
  command.workers = 2;
  command.server.threads = 1;
  EXPECT_EQ(serve_banner(command, {.port = 8080}),
            "stampede serve: listening on http://127.0.0.1:8080/ (2 workers sharing the port, 1 "
            "thread each; Ctrl-C stops)");
}

TEST(ServeOptions, BannerNamesTheTlsUrlToo) {
  ServeCommand command;
  command.server.threads = 1;
  command.server.tls_port = 0;
  EXPECT_EQ(serve_banner(command, {.port = 8080, .tls_port = 8443}),
            "stampede serve: listening on http://127.0.0.1:8080/ and https://127.0.0.1:8443/ (1 "
            "thread; Ctrl-C stops)");
  command.workers = 2;
  EXPECT_EQ(serve_banner(command, {.port = 8080, .tls_port = 8443}),
            "stampede serve: listening on http://127.0.0.1:8080/ and https://127.0.0.1:8443/ (2 "
            "workers sharing the ports, 1 thread each; Ctrl-C stops)");
}

TEST(ServeOptions, ReadsTlsPortAndMaxStreams) {
  EXPECT_FALSE(parse_serve({}).tls_port);
  EXPECT_EQ(parse_serve({}).max_streams, target_server::default_max_streams);
  const auto o = parse_serve({"--tls-port", "8443", "--max-streams", "5"});
  EXPECT_EQ(o.tls_port, 8443);
  EXPECT_EQ(o.max_streams, 5U);
  EXPECT_TRUE(o.certificate.empty());  // the server makes a self-signed one
  EXPECT_EQ(parse_serve({"--tls-port=0"}).tls_port, 0);
  EXPECT_EQ(parse_serve({"--max-streams", "1"}).max_streams, 1U);
  const std::string streams = "--max-streams must be between 1 and 1000000" + usage;
  EXPECT_EQ(serve_usage_error({"--max-streams", "0"}), streams);
  EXPECT_EQ(serve_usage_error({"--max-streams", "1000001"}), streams);
  EXPECT_EQ(serve_usage_error({"--tls-port", "65536"}),
            "--tls-port must be between 0 (any free port) and 65535" + usage);
}

TEST(ServeOptions, ReadsTheIdleTimeoutInSecondsAndZeroAsNever) {
  using std::chrono::milliseconds;
  EXPECT_EQ(parse_serve({}).idle_timeout, target_server::default_idle_timeout);
  EXPECT_EQ(target_server::default_idle_timeout, milliseconds(60'000));
  EXPECT_EQ(parse_serve({"--idle-timeout", "1"}).idle_timeout, milliseconds(1000));
  EXPECT_EQ(parse_serve({"--idle-timeout=0.5"}).idle_timeout, milliseconds(500));
  EXPECT_EQ(parse_serve({"-idle-timeout", "120"}).idle_timeout, milliseconds(120'000));
  EXPECT_EQ(parse_serve({"--idle-timeout", "0.001"}).idle_timeout, milliseconds(1));
  EXPECT_EQ(parse_serve({"--idle-timeout", "31536000"}).idle_timeout, milliseconds(31'536'000'000));
  EXPECT_EQ(parse_serve({"--idle-timeout", "0"}).idle_timeout, milliseconds::zero());  // never
}

TEST(ServeOptions, RefusesAnIdleTimeoutOutOfRangeOrNotANumber) {
  const std::string rule =
      "--idle-timeout must be 0 (never close an idle connection) or a number of seconds from "
      "0.001 to 31536000 (a year)" +
      usage;
  EXPECT_EQ(serve_usage_error({"--idle-timeout", "-1"}), rule);
  EXPECT_EQ(serve_usage_error({"--idle-timeout", "0.0004"}), rule);  // would round to 0, "never"
  EXPECT_EQ(serve_usage_error({"--idle-timeout", "31536001"}), rule);
  EXPECT_EQ(serve_usage_error({"--idle-timeout", "nan"}), rule);
  EXPECT_EQ(serve_usage_error({"--idle-timeout", "inf"}), rule);
  EXPECT_EQ(serve_usage_error({"--idle-timeout", "soon"}), rule);
  EXPECT_EQ(serve_usage_error({"--idle-timeout", "60s"}), rule);
  EXPECT_EQ(serve_usage_error({"--idle-timeout"}), "flag --idle-timeout needs a value" + usage);
}

TEST(ServeOptions, ReadsMaxInFlightWithZeroAsNoLimit) {
  EXPECT_EQ(parse_serve({}).max_in_flight, 0U);  // no limit by default
  EXPECT_EQ(parse_serve({"--max-in-flight", "4"}).max_in_flight, 4U);
  EXPECT_EQ(parse_serve({"--max-in-flight=1"}).max_in_flight, 1U);
  EXPECT_EQ(parse_serve({"-max-in-flight", "0"}).max_in_flight, 0U);
  EXPECT_EQ(parse_serve({"--max-in-flight", "100000000"}).max_in_flight, 100'000'000U);
  // Per worker process: each worker gets the same options, so the same limit of its own.
  const auto workers = parse_command({"--workers", "3", "--max-in-flight", "7"});
  EXPECT_EQ(workers.workers, 3U);
  EXPECT_EQ(workers.server.max_in_flight, 7U);
}

TEST(ServeOptions, RefusesAMaxInFlightOutOfRangeOrNotACount) {
  const std::string rule =
      "--max-in-flight must be 0 (no limit) or between 1 and 100000000" + usage;
  EXPECT_EQ(serve_usage_error({"--max-in-flight", "-1"}),
            rule);  // not 4,294,967,295, nor "no limit"
  EXPECT_EQ(serve_usage_error({"--max-in-flight", "100000001"}), rule);
  EXPECT_EQ(serve_usage_error({"--max-in-flight=4294967296"}), rule);  // not 0 once narrowed
  EXPECT_EQ(serve_usage_error({"--max-in-flight", "four"}), rule);
  EXPECT_EQ(serve_usage_error({"--max-in-flight", "2.5"}), rule);
  EXPECT_EQ(serve_usage_error({"--max-in-flight"}), "flag --max-in-flight needs a value" + usage);
}

TEST(ServeOptions, BannerNamesTheInFlightLimit) {
  ServeCommand command;
  command.server.threads = 2;
  command.server.max_in_flight = 4;
  EXPECT_EQ(serve_banner(command, {.port = 8080}),
            "stampede serve: listening on http://127.0.0.1:8080/ (2 threads, at most 4 requests "
            "in flight; Ctrl-C stops)");
  command.server.max_in_flight = 1;
  command.workers = 2;
  EXPECT_EQ(serve_banner(command, {.port = 8080}),
            "stampede serve: listening on http://127.0.0.1:8080/ (2 workers sharing the port, 2 "
            "threads each, at most 1 request in flight each; Ctrl-C stops)");
}

TEST(ServeOptions, RoutesNameTheGrpcMethodsAndTheProtocols) {
  ServeCommand command;
  EXPECT_EQ(serve_routes(command),
            "routes: /  /json  /status/{code}  /delay/{ms}  /bytes/{n}  /sse  /trickle  WebSocket: "
            "/echo  /acc  gRPC (HTTP/2): /stampede.Echo/{Echo,Fail,Chat,Collect,Repeat}\n"
            "HTTP/1.1 and h2c (prior knowledge or Upgrade)");
  command.server.tls_port = 0;
  EXPECT_EQ(serve_routes(command).substr(serve_routes(command).find('\n') + 1),
            "HTTP/1.1 and h2c (prior knowledge or Upgrade), h2 and HTTP/1.1 by ALPN over TLS");
}

/// A file in the test's temporary directory holding `text`; its path.
std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("stampede-serve-options-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(ServeOptions, ReadsAndChecksCertificateFiles) {
  const auto made = target_server::make_self_signed_certificate();
  const auto other = target_server::make_self_signed_certificate();
  const auto cert = write_file("cert.pem", made.chain_pem);
  const auto key = write_file("key.pem", made.key_pem);
  const auto other_key = write_file("other-key.pem", other.key_pem);
  const auto o = parse_serve({"--tls-port", "0", "--cert", cert.c_str(), "--key", key.c_str()});
  EXPECT_EQ(o.certificate.chain_pem, made.chain_pem);
  EXPECT_EQ(o.certificate.key_pem, made.key_pem);
  // Files that will not do: one line naming the file, without the usage.
  EXPECT_EQ(serve_usage_error({"--tls-port", "0", "--cert", key.c_str(), "--key", key.c_str()}),
            "--cert " + key + ": no PEM certificate in it");
  EXPECT_EQ(
      serve_usage_error({"--tls-port", "0", "--cert", cert.c_str(), "--key", cert.c_str()}),
      "--key " + cert + ": no PEM private key in it (or an encrypted one: give it unencrypted)");
  EXPECT_EQ(
      serve_usage_error({"--tls-port", "0", "--cert", cert.c_str(), "--key", other_key.c_str()}),
      "--key " + other_key + ": not the key of the certificate in " + cert);
  EXPECT_EQ(
      serve_usage_error({"--tls-port", "0", "--cert", "/nonexistent.pem", "--key", key.c_str()}),
      "cannot read --cert /nonexistent.pem: No such file or directory");
  EXPECT_EQ(serve_usage_error({"--tls-port", "0", "--cert", cert.c_str()}),
            "--cert and --key go together" + usage);
  EXPECT_EQ(serve_usage_error({"--cert", cert.c_str(), "--key", key.c_str()}),
            "--cert and --key need --tls-port" + usage);
  for (const auto& path : {cert, key, other_key}) std::filesystem::remove(path);
}

}  // namespace
}  // namespace stampede::cmd
