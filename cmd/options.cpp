// parse_options(): the load run's table of flags parsed, then what ties flags to each other.
#include "cmd/options.hpp"

#include <algorithm>
#include <array>
#include <boost/algorithm/string/predicate.hpp>
#include <cctype>
#include <chrono>
#include <cstdlib>

#include "cmd/curl_source.hpp"
#include "cmd/data_file.hpp"
#include "cmd/duration_flag.hpp"
#include "cmd/limits.hpp"
#include "cmd/load_flags.hpp"
#include "cmd/shard_flags.hpp"
#include "cmd/stages_flag.hpp"
#include "cmd/sweep_flags.hpp"
#include "cmd/threshold_flag.hpp"
#include "model/http_syntax.hpp"
#include "report/formats.hpp"
#include "verify/verifier.hpp"

namespace stampede::cmd {

namespace po = boost::program_options;

namespace {

/// -code's range depends on -v: a status code, or any int for a JSON body's "code".
std::string code_rule(const verify::VerifierKind& kind) {
  return "-code with -v " + std::string(kind.name) + " must be " + std::string(kind.code_range);
}

/// A grpc:// or grpcs:// URL (its -code is a gRPC status code).
bool grpc_url(std::string_view url) {
  const auto scheme = url.substr(0, url.find("://"));
  return scheme.size() < url.size() &&
         (boost::iequals(scheme, "grpc") || boost::iequals(scheme, "grpcs"));
}

/// -z against -n and -timeout: one thing ends the run, and the hard stop not before it.
void check_duration(const Options& o) {
  if (o.duration.empty()) {
    if (o.requests == 0 && o.run_timeout_s == 0) {
      throw UsageError(
          "-n 0 needs -z or -timeout (-n 0 sends requests until the time is up or the run is "
          "stopped)");
    }
    return;
  }
  const auto duration = parse_duration(o.duration, "-z");
  if (o.has_requests && o.requests != 0 && !o.listen) {  // --listen: -n messages, then listen
    throw UsageError(
        "-z and -n both say when the run ends: give one (with -z each user sends "
        "requests until the time is up)");
  }
  const auto hard_stop = std::chrono::duration<double>(o.run_timeout_s);
  if (o.run_timeout_s > 0 && hard_stop < duration) {
    throw UsageError(
        "-timeout is shorter than -z: it would stop the run before its time is up "
        "(drop -timeout, or make it longer)");
  }
}

/// --rate decides when requests start: no other pace with it, and something must end the run.
void check_rate(const Options& o) {
  if (!o.has_rate) return;
  if (!o.think.empty() || o.interval_s > 0) {
    throw UsageError(
        "--rate sets when requests start; --think and --interval pace each user instead: give "
        "one");
  }
  if (o.listen) throw UsageError("--rate sends on a schedule; --listen only receives: give one");
  if (o.connect_rate > 0) {
    throw UsageError(
        "--connect-rate does nothing with --rate (users start as the rate needs them)");
  }
  if (o.duration.empty() && !o.has_requests) {
    throw UsageError(
        "--rate needs -z (for how long) or -n (how many requests in all), as in --rate 100 "
        "-z 30s");
  }
}

/// --ramp and --stages shape how many users run (or, with --rate or N/s targets, the rate):
/// against the flags that shape it too.
void check_ramp_and_stages(const Options& o) {
  if (!o.ramp.empty()) {
    const auto ramp = parse_duration(o.ramp, "--ramp");
    if (o.connect_rate > 0) {
      throw UsageError("--ramp and --connect-rate both say when users start: give one");
    }
    if (!o.duration.empty() && parse_duration(o.duration, "-z") <= ramp) {
      throw UsageError(
          "--ramp is as long as -z or longer: the run would end before the ramp is over");
    }
  }
  if (o.stages.empty()) return;
  const bool per_second = parse_stages(o.stages).per_second;
  if (o.has_rate) {
    throw UsageError(
        "--stages with --rate: the stages say the rate; write their targets as requests a "
        "second, as in --stages 30s:1000/s,60s:1000/s");
  }
  // Rate stages keep -c as the cap on requests in flight.
  const auto fixed = o.has_users && !per_second ? "-c"
                     : o.has_requests           ? "-n"
                     : !o.duration.empty()      ? "-z"
                     : !o.ramp.empty()          ? "--ramp"
                     : o.connect_rate > 0       ? "--connect-rate"
                     : o.listen                 ? "--listen"
                                                : "";
  if (*fixed != '\0') {
    throw UsageError(std::string("--stages sets the ") + (per_second ? "rate" : "users") +
                     " and the run's length: drop " + fixed);
  }
  if (per_second && (!o.think.empty() || o.interval_s > 0)) {
    throw UsageError(
        "--stages in requests a second sets when requests start; --think and --interval pace "
        "each user instead: give one");
  }
}

/// A sweep runs several steps of -z each: against what fixes a run's length or its level, and
/// its own flags only with it.
void check_sweep(const Options& o) {
  const bool sweep = !o.sweep.empty() || !o.sweep_rate.empty();
  if (!sweep) {
    if (o.urls.size() > 1) {
      throw UsageError(
          "several -u: only a sweep runs several targets, one after another (add --sweep or "
          "--sweep-rate)");
    }
    if (!o.slo.empty())
      throw UsageError("--slo judges a sweep's steps: add --sweep or --sweep-rate");
    if (!o.warmup.empty())
      throw UsageError("--warmup comes before each step of a sweep: add --sweep");
    return;
  }
  if (!o.percentiles_file.empty()) {
    throw UsageError("-e writes one run's percentiles; a sweep's steps are in --output csv");
  }
  if (!o.save_file.empty()) {
    throw UsageError("--save keeps one run; a sweep's steps are in --output json or csv");
  }
  if (!o.gnuplot_file.empty()) {
    throw UsageError("-g writes one run's requests; a sweep's steps are in --output csv");
  }
  if (!o.prometheus.empty()) {
    throw UsageError("--prometheus serves one run's metrics; a sweep's steps are in --output json");
  }
  const auto sweep_flags = parse_sweep(o);
  const auto fixed = !o.sweep.empty() && !o.sweep_rate.empty() ? "--sweep-rate"
                     : o.has_requests                          ? "-n"
                     : !o.stages.empty()                       ? "--stages"
                     : o.has_rate                              ? "--rate"
                     : o.listen                                ? "--listen"
                     : o.has_users && !sweep_flags.by_rate     ? "-c"
                                                               : "";
  if (*fixed != '\0') {
    throw UsageError(std::string("a sweep runs each level for -z (10 s by default): drop ") +
                     fixed);
  }
  if (!o.slo.empty()) (void)parse_slo(o.slo);
  if (!o.warmup.empty() && o.warmup != "0") (void)parse_duration(o.warmup, "--warmup");
}

/// --threshold judges one run's figures (each bound readable), --abort-on-fail needs one.
void check_thresholds(const Options& o) {
  for (const auto& text : o.thresholds) (void)parse_threshold(text);
  if (o.abort_on_fail && o.thresholds.empty()) {
    throw UsageError("--abort-on-fail stops a run once a --threshold can no longer pass: add one");
  }
  if (!o.thresholds.empty() && (!o.sweep.empty() || !o.sweep_rate.empty())) {
    throw UsageError("--threshold judges one run; a sweep judges its steps with --slo");
  }
}

/// --pv: a number of page views, and the rule of thumb's shares.
void check_page_views(const Options& o) {
  if (o.page_views < 0 || o.page_views > 1e15) {
    throw UsageError("--pv is a number of daily page views, from 1 to 10^15");
  }
  if (!(o.peak_share > 0 && o.peak_share <= 1) ||
      !(o.peak_time_share > 0 && o.peak_time_share <= 1)) {
    throw UsageError(
        "--peak-share and --peak-time-share are shares above 0 and at most 1 (0.8, 0.2)");
  }
}

/// --har-include, --har-exclude and --think har need a HAR to choose from or pause as.
void check_har(const Options& o) {
  if (any_har(o.curl_files)) return;
  if (!o.har_include.empty() || !o.har_exclude.empty()) {
    throw UsageError(
        "--har-include and --har-exclude choose a HAR file's entries: give -p FILE.har");
  }
  if (o.think == Options::think_har) {
    throw UsageError("--think har replays the pauses a HAR file recorded: give -p FILE.har");
  }
}

/// --shard (or --shards), --start-at and --run-id: readable, and for one run, not a sweep.
void check_shards(const Options& o) {
  const auto shard = shard_position(o, std::getenv("JOB_COMPLETION_INDEX"));
  if (!o.start_at.empty()) {
    // A shard told late starts at once, its lateness shown; a day either way is a mistake.
    const auto away = parse_instant(o.start_at) - std::chrono::system_clock::now();
    if (std::chrono::abs(away) > std::chrono::hours(24)) {
      throw UsageError(std::string("--start-at is more than a day ") +
                       (away.count() > 0 ? "away" : "ago") + " (is its time zone right? Z is UTC)");
    }
  }
  if (!o.run_id.empty() &&
      (o.run_id.size() > 64 || !std::all_of(o.run_id.begin(), o.run_id.end(), [](char c) {
         return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' ||
                c == '.';
       }))) {
    throw UsageError("--run-id takes up to 64 letters, digits, '-', '_' and '.'");
  }
  if (!o.told_at.empty()) (void)parse_instant(o.told_at, "--told-at");
  if (!shard) {
    if (!o.run_id.empty())
      throw UsageError("--run-id names the run that shards share: add --shard");
    if (!o.told_at.empty())
      throw UsageError("--told-at is when a shard was told to start: add --shard");
    return;
  }
  if (!o.sweep.empty() || !o.sweep_rate.empty()) {
    throw UsageError(
        "--shard splits one run; a sweep's steps are each a run of their own (drop --shard)");
  }
}

/// What the table's ranges cannot say: flags against each other, and values with a grammar.
void check_ranges(const Options& o) {
  check_duration(o);
  check_rate(o);
  check_ramp_and_stages(o);
  check_sweep(o);
  check_page_views(o);
  check_thresholds(o);
  check_har(o);
  check_shards(o);
  if (!o.think.empty()) {
    if (o.think != Options::think_har) (void)parse_duration_range(o.think, "--think");
    if (o.interval_s > 0) {
      throw UsageError("--think and --interval both pace a user's requests: give one");
    }
  }
  const auto* kind = verify::find_verifier_kind(o.verify);
  if (kind == nullptr) {
    throw UsageError("unknown verifier '" + o.verify + "' (use " + verify::verifier_choices() +
                     ")");
  }
  if (grpc_url(o.url) && kind->name == "statusCode") {
    if (o.has_code && (o.code < 0 || o.code > 16)) {
      throw UsageError("-code on a gRPC call must be a gRPC status code, 0 (OK) to 16");
    }
  } else if (o.code < kind->min_code || o.code > kind->max_code) {
    throw UsageError(code_rule(*kind));
  }
  if (report::find_format(o.output) == nullptr) {
    throw UsageError("unknown output '" + o.output + "' (use " +
                     report::format_choices("--output ") + ")");
  }
}

/// -X goes on the request line as typed: one token, or the request would not be the one meant.
void check_method(const Options& o, bool given) {
  if (given && o.method.empty()) {
    throw UsageError("-X is empty (give a method, such as GET or PUT)");
  }
  if (given && !model::is_token(o.method)) {
    throw UsageError("bad method '" + o.method + "' (-X takes one word, such as GET or PUT)");
  }
}

/// True for a flag given with nothing in its value (or in one of a repeated flag's values).
bool empty_value(const po::variable_value& value) {
  if (const auto* text = boost::any_cast<std::string>(&value.value())) return text->empty();
  if (const auto* texts = boost::any_cast<std::vector<std::string>>(&value.value())) {
    return std::any_of(texts->begin(), texts->end(), [](const auto& text) { return text.empty(); });
  }
  return false;
}

/// An empty value is a mistake, not the flag left out: `-z ""` (a variable that was not set)
/// would otherwise run one request. -data '' is an empty body; -X '' has a message of its own.
void check_empty_values(const po::variables_map& values, const CanonicalWords& words) {
  for (const auto& [name, value] : values) {
    if (name == "data" || name == "method" || !empty_value(value)) continue;
    const auto typed = words.typed.find(name);
    const auto flag = typed != words.typed.end() ? typed->second : "-u";  // else the positional URL
    throw UsageError(flag + " is empty (give it a value, or leave the flag out)");
  }
}

}  // namespace

Options parse_options(std::span<const char* const> args) {
  Options options;
  const auto parsed = parse_flags(args, load_flags(), options, "url", " (see stampede --help)", "");
  const auto& values = parsed.values;
  const auto& words = parsed.words;
  check_empty_values(values, words);
  options.has_data = values.count("data") > 0;
  options.has_request_timeout = values.count("request-timeout") > 0;
  options.has_requests = values.count("requests") > 0;
  options.has_code = values.count("code") > 0;
  options.has_rate = values.count("rate") > 0;
  options.has_max_message = values.count("max-message") > 0;
  options.has_users = values.count("concurrency") > 0;
  const bool has_method = values.count("method") > 0;
  if (options.help || options.version) return options;
  if (!options.urls.empty()) options.url = options.urls.front();
  // A .csv holds rows for ${csv:...}; any other --data-file is a gRPC message's bytes.
  if (is_csv_name(options.data_file)) options.csv_file = std::exchange(options.data_file, {});
  check_ranges(options);
  check_method(options, has_method);
  // An alias (-v http) is read as the name it stands for, in the report and the saved run too.
  options.verify = std::string(verify::find_verifier_kind(options.verify)->name);
  if (!options.shard.empty() || options.shards != 0) {
    if (options.run_id.empty()) options.run_id = derived_run_id(words.words);
    options.plan = plan_digest(words.words);
  }
  return options;
}

}  // namespace stampede::cmd
