// CLI tests: go-stress-testing's spellings, long forms, defaults and one-line usage errors.
#include "cmd/options.hpp"
#include "cmd/stages_flag.hpp"
#include "cmd/sweep_flags.hpp"

#include <gtest/gtest.h>

#include <initializer_list>

#include "verify/verifier.hpp"

namespace stampede::cmd {
namespace {

Options parse(std::initializer_list<const char*> words) {
  const std::vector<const char*> args(words);
  return parse_options(args);
}

std::string usage_error(std::initializer_list<const char*> words) {
  try {
    (void)parse(words);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Options, AnEmptyValueIsAUsageErrorNamingTheFlagAsTyped) {
  const auto empty = [](const char* flag) {
    return std::string(flag) + " is empty (give it a value, or leave the flag out)";
  };
  for (const auto* flag : {"-z", "--stages", "--think", "--ramp", "--slo", "--data-file",
                           "--source-ips", "--sweep-rate", "--sweep", "--save", "-e", "--html",
                           "-H", "--threshold", "-p", "--duration"}) {
    EXPECT_EQ(usage_error({flag, "", "-u", "http://h/"}), empty(flag)) << flag;
  }
  EXPECT_EQ(usage_error({"-H", "A: 1", "-H", "", "-u", "http://h/"}), empty("-H"));
  EXPECT_EQ(usage_error({"-u", ""}), empty("-u"));
  EXPECT_EQ(usage_error({""}), empty("-u"));
  EXPECT_EQ(parse({"-data", "", "-u", "http://h/"}).data, "");  // an empty body
}

TEST(Options, Defaults) {
  const auto o = parse({"-u", "http://127.0.0.1/"});
  EXPECT_EQ(o.users, 1);
  EXPECT_EQ(o.requests, 1);
  EXPECT_FALSE(o.keep_alive);
  EXPECT_EQ(o.request_timeout_s, 30);
  EXPECT_EQ(o.run_timeout_s, 0);
  EXPECT_EQ(o.verify, "statusCode");
  EXPECT_EQ(o.code, 200);
  EXPECT_EQ(o.output, "text");
}

TEST(Options, GoStressTestingSpellings) {
  const auto o = parse({"-c", "100",  "-n",    "20",    "-u",  "http://h/", "-H", "A: 1",
                        "-H", "B: 2", "-data", "x=1",   "-k",  "-timeout",  "9",  "-cpuNumber",
                        "3",  "-v",   "json",  "-code", "201", "-redirect", "-d", "true"});
  EXPECT_EQ(o.users, 100);
  EXPECT_EQ(o.requests, 20);
  EXPECT_EQ(o.url, "http://h/");
  EXPECT_EQ(o.headers, (std::vector<std::string>{"A: 1", "B: 2"}));
  EXPECT_EQ(o.data, "x=1");
  EXPECT_TRUE(o.has_data);
  EXPECT_TRUE(o.keep_alive);
  EXPECT_EQ(o.run_timeout_s, 9);
  EXPECT_EQ(o.threads, 3);
  EXPECT_EQ(o.verify, "json");
  EXPECT_EQ(o.code, 201);
  EXPECT_TRUE(o.redirect);
  EXPECT_TRUE(o.debug);
  EXPECT_FALSE(o.http2);
}

// go-stress-testing's help lists "-v: http: statusCode, json"; its users type -v http, and its
// -d is a string flag compared with "true" in any case.
TEST(Options, TakesGoStressTestingsOwnSpellings) {
  const auto o = parse({"-v", "http", "-d", "TRUE", "-k=T", "-u", "http://h/"});
  EXPECT_EQ(o.verify, "statusCode");
  EXPECT_TRUE(o.debug);
  EXPECT_TRUE(o.keep_alive);
  EXPECT_FALSE(parse({"-d", "False", "-u", "http://h/"}).debug);
}

TEST(Options, Http2Spellings) {
  for (const char* flag : {"-http2", "--http2", "-http2=true"}) {
    EXPECT_TRUE(parse({flag, "-u", "http://h/"}).http2) << flag;
  }
  EXPECT_TRUE(parse({"-http2", "true", "-u", "http://h/"}).http2);
  EXPECT_FALSE(parse({"-http2=false", "-u", "http://h/"}).http2);
}

TEST(Options, SharedConnectionsSpellingsAndRange) {
  EXPECT_EQ(parse({"-u", "http://h/"}).connections, 0);  // a connection per user
  for (const char* flag : {"-m", "--m", "--connections", "-connections"}) {
    EXPECT_EQ(parse({flag, "4", "-http2", "-u", "http://h/"}).connections, 4) << flag;
  }
  EXPECT_EQ(parse({"-m=10", "-u", "http://h/"}).connections, 10);
  const std::string m =
      "-m must be 0 (each user its own connection) or a whole number from 1 to "
      "10000000 (connections to each server that the users share, with -http2)";
  EXPECT_EQ(usage_error({"-m", "-1", "-u", "http://h/"}), m);
  EXPECT_EQ(usage_error({"-m", "10000001", "-u", "http://h/"}), m);
  EXPECT_EQ(usage_error({"-m", "x", "-u", "http://h/"}), m);
}

TEST(Options, GrpcFlagsAndItsCodes) {
  const auto options = parse({"-u", "grpc://h:1/p.S/M", "--proto", "a.proto", "-proto=b.proto",
                              "--import-path", "inc", "--data-file", "m.bin", "-code", "14"});
  EXPECT_EQ(options.proto_files, (std::vector<std::string>{"a.proto", "b.proto"}));
  EXPECT_EQ(options.import_paths, std::vector<std::string>{"inc"});
  EXPECT_EQ(options.data_file, "m.bin");
  EXPECT_TRUE(options.has_code);
  EXPECT_FALSE(parse({"-u", "grpc://h:1/p.S/M"}).has_code);
  EXPECT_EQ(usage_error({"-u", "grpcs://h:1/p.S/M", "-code", "200"}),
            "-code on a gRPC call must be a gRPC status code, 0 (OK) to 16");
  EXPECT_EQ(usage_error({"-u", "http://h/", "-code", "14"}),
            "-code with -v statusCode must be 100 to 599");
}

TEST(Options, LongFormsAndGoBooleanValues) {
  const auto o = parse({"--concurrency",
                        "5",
                        "--requests=7",
                        "--url",
                        "http://h/",
                        "--header",
                        "A: 1",
                        "--data",
                        "d",
                        "--keepalive=false",
                        "--request-timeout",
                        "1.5",
                        "--timeout",
                        "3",
                        "--cpuNumber=2",
                        "--insecure",
                        "--no-tls-resume",
                        "--output",
                        "json",
                        "-d=false"});
  EXPECT_EQ(o.users, 5);
  EXPECT_EQ(o.requests, 7);
  EXPECT_FALSE(o.keep_alive);
  EXPECT_EQ(o.request_timeout_s, 1.5);
  EXPECT_EQ(o.threads, 2);
  EXPECT_TRUE(o.insecure);
  EXPECT_TRUE(o.no_tls_resume);
  EXPECT_EQ(o.output, "json");
  EXPECT_FALSE(o.debug);
}

TEST(Options, CurlFileSpellingsAndPrintRequest) {
  for (const char* flag : {"-p", "--p", "--curl", "-curl"}) {
    EXPECT_EQ(parse({flag, "req.txt"}).curl_files, std::vector<std::string>{"req.txt"}) << flag;
  }
  EXPECT_EQ(parse({"--p=req.txt"}).curl_files, std::vector<std::string>{"req.txt"});
  // Several -p make a mix of flows, each FILE[:WEIGHT].
  EXPECT_EQ(parse({"-p", "a.sh:8", "--curl", "b.sh"}).curl_files,
            (std::vector<std::string>{"a.sh:8", "b.sh"}));
  const auto o = parse({"-p", "r", "--print-request", "-t", "2"});
  EXPECT_TRUE(o.print_request);
  EXPECT_TRUE(o.has_request_timeout);
  EXPECT_FALSE(parse({"-p", "r"}).has_request_timeout);
}

TEST(Options, WebSocketFlags) {
  const auto defaults = parse({"ws://h/"});
  EXPECT_FALSE(defaults.binary);
  EXPECT_EQ(defaults.max_message, 1 << 20);
  EXPECT_EQ(defaults.hold_s, 0);
  EXPECT_EQ(defaults.ping_s, 0);
  const auto o = parse({"--binary", "--max-message", "65536", "--ping", "0.5", "-u", "ws://h/"});
  EXPECT_TRUE(o.binary);
  EXPECT_EQ(o.max_message, 65536);
  EXPECT_EQ(o.ping_s, 0.5);
  EXPECT_EQ(o.url, "ws://h/");
  EXPECT_FALSE(parse({"--binary=false", "ws://h/"}).binary);
  EXPECT_EQ(parse({"-max-message=1", "ws://h/"}).max_message, 1);
}

// --hold's seconds may be left out, so it takes the next word only when that is a number:
// otherwise the flag or URL after it would be read as its value.
TEST(Options, HoldTakesSecondsOnlyWhenANumberFollows) {
  const auto alone = parse({"--hold", "-u", "ws://h/"});
  EXPECT_EQ(alone.hold_s, Options::hold_forever);
  EXPECT_EQ(alone.url, "ws://h/");
  EXPECT_EQ(parse({"-u", "ws://h/", "--hold"}).hold_s, Options::hold_forever);  // the last word
  EXPECT_EQ(parse({"--hold", "60", "-u", "ws://h/"}).hold_s, 60);
  EXPECT_EQ(parse({"-hold", ".5", "ws://h/"}).hold_s, 0.5);
  EXPECT_EQ(parse({"--hold=2.5", "ws://h/"}).hold_s, 2.5);
  EXPECT_EQ(parse({"--hold", "0", "ws://h/"}).hold_s, 0);
  EXPECT_EQ(parse({"--hold", "-c", "3", "ws://h/"}).users, 3);
  const auto url_next = parse({"--hold", "ws://h/"});  // the URL is no value of --hold
  EXPECT_EQ(url_next.hold_s, Options::hold_forever);
  EXPECT_EQ(url_next.url, "ws://h/");
}

TEST(Options, DurationSpellingsAndWhatItCannotGoWith) {
  EXPECT_EQ(parse({"-z", "30s", "-u", "http://h/"}).duration, "30s");
  EXPECT_EQ(parse({"--duration", "2m", "http://h/"}).duration, "2m");
  EXPECT_EQ(parse({"-duration=1.5", "http://h/"}).duration, "1.5");
  EXPECT_EQ(parse({"-z", "1", "-n", "0", "http://h/"}).requests, 0);  // -n 0: until the time is up
  EXPECT_EQ(parse({"-z", "10s", "-timeout", "10", "http://h/"}).run_timeout_s, 10);
  EXPECT_EQ(parse({"-z", "10s", "--listen", "-n", "2", "ws://h/"}).requests, 2);  // then listens
  EXPECT_EQ(usage_error({"-z", "0", "http://h/"}),
            "-z takes a length of time from 1 ms to a year: 500ms, 30s, 2m, 1h, or a number of "
            "seconds (got '0')");
  EXPECT_EQ(usage_error({"-z", "30s", "-n", "10", "http://h/"}),
            "-z and -n both say when the run ends: give one (with -z each user sends requests "
            "until the time is up)");
  EXPECT_EQ(usage_error({"-z", "30s", "-timeout", "29.9", "http://h/"}),
            "-timeout is shorter than -z: it would stop the run before its time is up (drop "
            "-timeout, or make it longer)");
  EXPECT_EQ(usage_error({"-u", "http://h/", "-z"}), "flag -z needs a value (see stampede --help)");
}

TEST(Options, ThinkTakesALengthOrASpanAndNotInterval) {
  EXPECT_EQ(parse({"--think", "200ms-1s", "http://h/"}).think, "200ms-1s");
  EXPECT_EQ(parse({"-think=1", "http://h/"}).think, "1");
  EXPECT_EQ(usage_error({"--think", "1s", "--interval", "1", "http://h/"}),
            "--think and --interval both pace a user's requests: give one");
  EXPECT_NE(usage_error({"--think", "soon", "http://h/"}).find("--think takes a length of time"),
            std::string::npos);
}

TEST(Options, RateIsRequestsASecondWithAnEndAndNoOtherPace) {
  const auto options = parse({"--rate", "2500.5", "-z", "30s", "http://h/"});
  EXPECT_EQ(options.rate, 2500.5);
  EXPECT_TRUE(options.has_rate);
  EXPECT_FALSE(options.has_users);
  EXPECT_TRUE(parse({"-rate=10", "-n", "100", "-c", "5", "http://h/"}).has_users);
  const std::string range = "--rate must be a number of requests per second from 0.001 to 10000000";
  EXPECT_EQ(usage_error({"--rate", "-1", "-z", "1s", "http://h/"}), range);
  EXPECT_EQ(usage_error({"--rate", "0", "-z", "1s", "http://h/"}), range);
  EXPECT_EQ(usage_error({"--rate", "fast", "-z", "1s", "http://h/"}), range);
  EXPECT_EQ(usage_error({"--rate", "nan", "-z", "1s", "http://h/"}), range);
  EXPECT_EQ(usage_error({"--rate", "10", "http://h/"}),
            "--rate needs -z (for how long) or -n (how many requests in all), as in --rate 100 "
            "-z 30s");
  EXPECT_EQ(usage_error({"--rate", "10", "-z", "1s", "--think", "1s", "http://h/"}),
            "--rate sets when requests start; --think and --interval pace each user instead: "
            "give one");
  EXPECT_EQ(usage_error({"--rate", "10", "-n", "5", "--interval", "1", "http://h/"}),
            "--rate sets when requests start; --think and --interval pace each user instead: "
            "give one");
  EXPECT_EQ(usage_error({"--rate", "10", "-z", "1s", "--connect-rate", "5", "http://h/"}),
            "--connect-rate does nothing with --rate (users start as the rate needs them)");
}

TEST(Options, RampAndStagesShapeTheUsersOrTheRateAlone) {
  EXPECT_EQ(parse({"-c", "50", "--ramp", "30s", "-z", "2m", "http://h/"}).ramp, "30s");
  EXPECT_EQ(parse({"--rate", "50", "--ramp", "30s", "-z", "2m", "http://h/"}).ramp, "30s");
  EXPECT_EQ(parse({"-c", "9", "--stages", "1s:5/s", "http://h/"}).stages, "1s:5/s");
  EXPECT_EQ(parse({"--stages", "30s:100,60s:500,30s:0", "http://h/"}).stages,
            "30s:100,60s:500,30s:0");
  EXPECT_EQ(usage_error({"-c", "5", "--ramp", "10s", "-z", "10s", "http://h/"}),
            "--ramp is as long as -z or longer: the run would end before the ramp is over");
  EXPECT_EQ(usage_error({"-c", "5", "--ramp", "1s", "--connect-rate", "5", "http://h/"}),
            "--ramp and --connect-rate both say when users start: give one");
  EXPECT_EQ(usage_error({"--stages", "10s:5", "-c", "5", "http://h/"}),
            "--stages sets the users and the run's length: drop -c");
  EXPECT_EQ(usage_error({"--stages", "10s:5", "-n", "5", "http://h/"}),
            "--stages sets the users and the run's length: drop -n");
  EXPECT_EQ(usage_error({"--stages", "10s:5", "-z", "20s", "http://h/"}),
            "--stages sets the users and the run's length: drop -z");
  EXPECT_EQ(usage_error({"--stages", "10s:5/s", "-z", "20s", "http://h/"}),
            "--stages sets the rate and the run's length: drop -z");
  EXPECT_EQ(usage_error({"--stages", "10s:5/s", "--rate", "5", "-z", "20s", "http://h/"}),
            "--stages with --rate: the stages say the rate; write their targets as requests a "
            "second, as in --stages 30s:1000/s,60s:1000/s");
  EXPECT_EQ(usage_error({"--stages", "10s:5/s", "--think", "1s", "http://h/"}),
            "--stages in requests a second sets when requests start; --think and --interval "
            "pace each user instead: give one");
}

TEST(Options, StagesAreLengthColonUsersOrRates) {
  const auto [stages, per_second] = parse_stages("500ms:3,1m:0");
  EXPECT_FALSE(per_second);
  ASSERT_EQ(stages.size(), 2U);
  EXPECT_EQ(stages[0].duration, std::chrono::milliseconds(500));
  EXPECT_EQ(stages[0].target, 3U);
  EXPECT_EQ(stages[1].duration, std::chrono::minutes(1));
  EXPECT_EQ(stages[1].target, 0U);
  const auto rates = parse_stages("2s:2000/s,1s:0/s");
  EXPECT_TRUE(rates.per_second);
  ASSERT_EQ(rates.stages.size(), 2U);
  EXPECT_EQ(rates.stages[0].target, 2000U);
  const std::string form =
      " (stages are DURATION:USERS, as in --stages 30s:100,60s:500,30s:0, or "
      "DURATION:REQUESTS/s, as in --stages 30s:1000/s,60s:1000/s)";
  EXPECT_EQ(usage_error({"--stages", "10s", "http://h/"}),
            "--stages: '10s' has no ':' between its length and target" + form);
  EXPECT_EQ(usage_error({"--stages", "10s:5,", "http://h/"}),
            "--stages: '' has no ':' between its length and target" + form);
  EXPECT_EQ(usage_error({"--stages", "10s:5,1s:5/s", "http://h/"}),
            "--stages: '1s:5/s' mixes users and requests a second: give every target as N, or "
            "every one as N/s" +
                form);
  EXPECT_EQ(usage_error({"--stages", "10s:20000000/s", "http://h/"}),
            "--stages: '10s:20000000/s' needs a whole number of requests a second from 0 to "
            "10000000" +
                form);
  EXPECT_EQ(
      usage_error({"--stages", "10s:-1", "http://h/"}),
      "--stages: '10s:-1' needs a whole number of users from 0 to 10000000 after the ':'" + form);
  EXPECT_EQ(
      usage_error({"--stages", "10s:0,5s:0", "http://h/"}),
      "--stages: '10s:0,5s:0' never asks for anything: give some stage a target above 0" + form);
  EXPECT_NE(usage_error({"--stages", "0s:5", "http://h/"}).find("--stages takes a length of time"),
            std::string::npos);
}

TEST(Options, UrlMayBeTheLastWord) {
  EXPECT_EQ(parse({"-c", "2", "http://h:81/x"}).url, "http://h:81/x");
}

TEST(Options, HelpAndVersionSkipValidation) {
  EXPECT_TRUE(parse({"-h"}).help);
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"--version"}).version);
  EXPECT_TRUE(parse({"-c", "0", "--help"}).help);
}

TEST(Options, UsageErrorsSayWhatAndHow) {
  EXPECT_EQ(usage_error({"-x"}), "unknown flag '-x' (see stampede --help)");
  EXPECT_NE(usage_error({"--bogus", "1"}).find("unknown flag"), std::string::npos);
  EXPECT_NE(usage_error({"-n", "0"}).find("-n 0 needs -z or -timeout"), std::string::npos);
  EXPECT_NE(usage_error({"-v", "xml"}).find("-v statusCode or -v json"), std::string::npos);
  EXPECT_NE(usage_error({"--output", "xml"}).find("--output text"), std::string::npos);
  EXPECT_EQ(usage_error({"-c"}), "flag -c needs a value (see stampede --help)");
  EXPECT_EQ(usage_error({"-u", "http://h/", "--timeout"}),
            "flag --timeout needs a value (see stampede --help)");
}

TEST(Options, GoFlagSyntaxForEveryFlag) {
  // Go's flag package: one dash or two, the value after `=` or in the next word.
  const auto o = parse({"-c=2", "-n=3", "-u=http://h:81/x?a=b", "-H=X: y", "--header=Z: 1",
                        "-data=a=b", "-X=PUT", "-cpuNumber=2", "-t=1.5", "--timeout=4", "-v=json",
                        "-code=0", "-k=true", "-d=false", "--output=json"});
  EXPECT_EQ(o.users, 2);
  EXPECT_EQ(o.requests, 3);
  EXPECT_EQ(o.url, "http://h:81/x?a=b");
  EXPECT_EQ(o.headers, (std::vector<std::string>{"X: y", "Z: 1"}));
  EXPECT_EQ(o.data, "a=b");
  EXPECT_TRUE(o.has_data);
  EXPECT_EQ(o.method, "PUT");
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.request_timeout_s, 1.5);
  EXPECT_TRUE(o.has_request_timeout);
  EXPECT_EQ(o.run_timeout_s, 4);
  EXPECT_EQ(o.verify, "json");
  EXPECT_EQ(o.code, 0);
  EXPECT_TRUE(o.keep_alive);
  EXPECT_FALSE(o.debug);
  EXPECT_EQ(o.output, "json");
  const auto l = parse({"--url=http://h/", "--c", "4", "--n=5", "-data", "-x", "--X", "GET"});
  EXPECT_EQ(l.url, "http://h/");
  EXPECT_EQ(l.users, 4);
  EXPECT_EQ(l.requests, 5);
  EXPECT_EQ(l.data, "-x");  // as in Go, a flag's next word is its value, whatever it starts with
  EXPECT_EQ(l.method, "GET");
  EXPECT_EQ(parse({"-c", "2", "--", "http://h/"}).url, "http://h/");
  EXPECT_EQ(parse({"-H", "-H: x", "http://h/"}).headers, std::vector<std::string>{"-H: x"});
}

TEST(Options, FlagErrorsNameTheFlagAsTyped) {
  EXPECT_EQ(usage_error({"-k=maybe", "http://h/"}),
            "the argument ('maybe') for option '-k' is invalid. Valid choices are 'on|off', "
            "'yes|no', '1|0' and 'true|false' (see stampede --help)");
  EXPECT_EQ(usage_error({"-u", "http://a/", "--url=http://b/"}),
            "several -u: only a sweep runs several targets, one after another (add --sweep or "
            "--sweep-rate)");
}

TEST(Options, SweepLevelsSloAndWhatASweepCannotGoWith) {
  const auto o = parse({"--sweep", "80,100", "-z", "5s", "-u", "http://a/", "-u", "http://b/",
                        "--slo", "p99<100ms,errors<1%", "--warmup", "1s"});
  EXPECT_EQ(o.url, "http://a/");
  EXPECT_EQ(o.urls, (std::vector<std::string>{"http://a/", "http://b/"}));
  const auto sweep = parse_sweep(o);
  EXPECT_FALSE(sweep.by_rate);
  EXPECT_EQ(sweep.levels, (std::vector<double>{80, 100}));
  EXPECT_TRUE(parse_sweep(parse({"--sweep-rate", "auto", "-c", "50", "http://a/"})).automatic);
  const auto slo = parse_slo("p99<0.1s,p50<20ms,errors<0.5%");
  ASSERT_EQ(slo.latency.size(), 2U);
  EXPECT_EQ(slo.latency[0].percentile, 99);
  EXPECT_EQ(slo.latency[0].below_ms, 100);
  EXPECT_EQ(slo.errors_below, 0.005);
  // --threshold's lengths of time: under a millisecond too.
  EXPECT_DOUBLE_EQ(parse_slo("p90<250us").latency[0].below_ms, 0.25);
  EXPECT_EQ(usage_error({"--sweep", "80,100", "-n", "5", "http://a/"}),
            "a sweep runs each level for -z (10 s by default): drop -n");
  EXPECT_EQ(usage_error({"--sweep", "80", "-c", "5", "http://a/"}),
            "a sweep runs each level for -z (10 s by default): drop -c");
  EXPECT_EQ(usage_error({"--sweep", "100,80", "http://a/"}),
            "--sweep: '80' is not above the level before it (levels rise)");
  EXPECT_EQ(usage_error({"--sweep", "1.5", "http://a/"}),
            "--sweep: '1.5' is not a whole number of users from 1 to 10000000 (as in --sweep "
            "80,100,150,200, or auto)");
  EXPECT_EQ(usage_error({"--sweep", "auto", "--slo", "p98<1s", "http://a/"}),
            "--slo: 'p98<1s' is not a bound (bounds are p50, p90, p99 or mean below a length of "
            "time, or errors below a share, as in --slo 'p99<100ms,errors<1%')");
  EXPECT_EQ(usage_error({"--slo", "p99<1s", "http://a/"}),
            "--slo judges a sweep's steps: add --sweep or --sweep-rate");
  EXPECT_EQ(usage_error({"--pv", "-5", "http://a/"}),
            "--pv is a number of daily page views, from 1 to 10^15");
}

/// Every count and duration: its range, checked at parse time, with one message saying it.
TEST(Options, RangesAreCheckedAndSaid) {
  const std::string c = "-c must be a whole number from 1 to 10000000";
  const std::string n = "-n must be a whole number from 0 to 1000000000000";
  const std::string t = "-t must be a number of seconds from 0.01 to 31536000";
  const std::string timeout = "-timeout must be 0 (no limit) or a number of seconds from 0.001";
  const std::string cpu = "-cpuNumber must be a whole number from 0 (every core) to 1024";
  const std::string status = "-code with -v statusCode must be 100 to 599";
  const std::string json = "-code with -v json must be any whole number from -2147483648";
  const std::string max_message =
      "--max-message must be a whole number of bytes from 1 to 1073741824";
  const std::string hold =
      "--hold takes a number of seconds from 0 to 31536000 (a year), or nothing";
  const std::string ping =
      "--ping must be 0 (no pings) or a number of seconds from 0.01 to 31536000";
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases{
      {{"-c", "0"}, c},
      {{"-c", "-3"}, c},
      {{"-c", "10000001"}, c},
      {{"-c", "4294967297"}, c},
      {{"-c", "abc"}, c},
      {{"-c=99999999999999999999"}, c},
      {{"-n", "-1"}, n},
      {{"-n", "1000000000001"}, n},
      {{"-n", "x"}, n},
      {{"-t", "0"}, t},
      {{"-t", "0.009"}, t},
      {{"-t", "-1"}, t},
      {{"-t", "1e300"}, t},
      {{"-t", "nan"}, t},
      {{"-timeout", "-1"}, timeout},
      {{"-timeout", "0.0001"}, timeout},
      {{"-timeout", "nan"}, timeout},
      {{"-timeout", "31536001"}, timeout},
      {{"-cpuNumber", "-1"}, cpu},
      {{"-cpuNumber", "1025"}, cpu},
      {{"-code", "99"}, status},
      {{"-code", "600"}, status},
      {{"-code", "99999"}, status},
      {{"-code", "0"}, status},
      {{"-v", "json", "-code", "2147483648"}, json},
      {{"-code", "2147483648", "-v", "json"}, json},
      {{"--max-message", "0"}, max_message},
      {{"--max-message", "1073741825"}, max_message},
      {{"--max-message", "-1"}, max_message},
      {{"--max-message", "1k"}, max_message},
      {{"--hold", "31536001"}, hold},
      {{"--hold=-1"}, hold},  // not --hold alone, whatever stands for that inside
      {{"--hold=soon"}, hold},
      {{"--ping", "0.009"}, ping},
      {{"--ping", "-1"}, ping},
      {{"--ping", "31536001"}, ping},
      {{"--ping", "often"}, ping},
  };
  for (const auto& [words, message] : cases) {
    auto args = words;
    args.push_back("http://h/");
    std::string error = "no error";
    try {
      (void)parse_options(args);
    } catch (const UsageError& e) {
      error = e.what();
    }
    EXPECT_TRUE(error.starts_with(message)) << ::testing::PrintToString(words) << ": " << error;
  }
  // The ends of each range, and what 0 means where it means something.
  const auto o = parse({"-c", "10000000", "-n", "0", "-t", "0.01", "-timeout", "0.001",
                        "-cpuNumber", "1024", "-code", "599", "http://h/"});
  EXPECT_EQ(o.users, 10'000'000);
  EXPECT_EQ(parse({"-timeout", "0", "-cpuNumber", "0", "-code", "100", "http://h/"}).threads, 0);
  EXPECT_EQ(parse({"-v", "json", "-code", "-2147483648", "http://h/"}).code, -2147483648LL);
  EXPECT_EQ(parse({"-n", "1000000000000", "http://h/"}).requests, 1'000'000'000'000);
  const auto ws =
      parse({"--max-message", "1073741824", "--hold", "31536000", "--ping", "0.01", "ws://h/"});
  EXPECT_EQ(ws.max_message, 1073741824);
  EXPECT_EQ(ws.hold_s, 31536000);
  EXPECT_EQ(ws.ping_s, 0.01);
}

TEST(Options, MethodIsOneWord) {
  EXPECT_EQ(usage_error({"-X", "GET X", "http://h/"}),
            "bad method 'GET X' (-X takes one word, such as GET or PUT)");
  EXPECT_EQ(usage_error({"-X", "GET\r\nX: 1", "http://h/"}),
            "bad method 'GET\r\nX: 1' (-X takes one word, such as GET or PUT)");
  EXPECT_EQ(usage_error({"-X", "", "http://h/"}),
            "-X is empty (give a method, such as GET or PUT)");
  EXPECT_EQ(usage_error({"-X=", "http://h/"}), "-X is empty (give a method, such as GET or PUT)");
  EXPECT_EQ(parse({"-X", "PROPFIND", "http://h/"}).method, "PROPFIND");
}

TEST(Options, ThresholdsRepeatAndAbortOnFailNeedsOne) {
  const auto o =
      parse({"--threshold", "p99<200ms", "--threshold=errors<1%", "--abort-on-fail", "http://h/"});
  EXPECT_EQ(o.thresholds, (std::vector<std::string>{"p99<200ms", "errors<1%"}));
  EXPECT_TRUE(o.abort_on_fail);
  EXPECT_EQ(usage_error({"--abort-on-fail", "http://h/"}),
            "--abort-on-fail stops a run once a --threshold can no longer pass: add one");
  EXPECT_EQ(usage_error({"--sweep", "1,2", "--threshold", "p99<1s", "http://h/"}),
            "--threshold judges one run; a sweep judges its steps with --slo");
  EXPECT_NE(usage_error({"--threshold", "p99", "http://h/"}).find("no comparison"),
            std::string::npos);
}

}  // namespace
}  // namespace stampede::cmd
