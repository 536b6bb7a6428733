// parse_shards_options(): the coordinator's own flags, the report's, and the load checked here
// before any host is reached.
#include "cmd/shards_options.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <string_view>

#include "cmd/duration_flag.hpp"
#include "cmd/options.hpp"
#include "cmd/report_options.hpp"
#include "cmd/stages_flag.hpp"

namespace stampede::cmd {
namespace {

constexpr std::string_view shards_hint = " (see stampede shards --help)";
constexpr std::string_view where = "Where the shards run";

/// shards' words before `--`: its own, and the report's it passes on.
struct ShardsWords : ReportCommand {
  std::string hosts;
  std::string ssh = "ssh";
  std::string remote_stampede = "stampede";
  std::string lead;
  std::string wait;
  std::string dir;
};

template <auto Member>
constexpr auto shards_bound = &into<ShardsWords, Member>;

const std::vector<Flag<ShardsWords>>& shards_flags() {
  static const auto flags = [] {
    std::vector<Flag<ShardsWords>> rows{
        {{"--hosts", "H1,H2,...", "", "the hosts, a shard each, reached by ssh", where},
         shards_bound<&ShardsWords::hosts>},
        {{"--ssh", "'COMMAND'", "ssh", "the ssh command and its options ('ssh -p 2222')", where},
         shards_bound<&ShardsWords::ssh>},
        {{"--stampede", "PATH", "stampede", "the stampede program on the hosts", where},
         shards_bound<&ShardsWords::remote_stampede>},
        {{"--lead", "D", "5s", "how far ahead the shards are told to start together", where},
         shards_bound<&ShardsWords::lead>},
        {{"--wait", "D", "the load's -z, --stages or -timeout, -t, and 30 s",
          "how long the shards may take after their start before they are stopped", where},
         shards_bound<&ShardsWords::wait>},
        {{"--dir", "DIR", "stampede-shards-RUN", "where each shard's saved run and errors are kept",
          where},
         shards_bound<&ShardsWords::dir>}};
    for (auto& row : report_output_flags<ShardsWords>()) rows.push_back(row);
    rows.push_back(
        {{"-h, --help", "", "", "this help", "Output"}, &into<ShardsWords, &ReportCommand::help>});
    return rows;
  }();
  return flags;
}

/// The report's flags given, as `stampede report` is to read them after the run.
std::vector<std::string> report_words(const ShardsWords& words,
                                      const boost::program_options::variables_map& values) {
  std::vector<std::string> args;
  if (values.count("output") > 0) args.insert(args.end(), {"--output", words.output});
  for (const auto& threshold : words.thresholds)
    args.insert(args.end(), {"--threshold", threshold});
  const std::pair<const char*, const std::string*> files[]{
      {"--save", &words.save_file}, {"-e", &words.percentiles_file}, {"--html", &words.html_file}};
  for (const auto& [flag, file] : files) {
    if (!file->empty()) args.insert(args.end(), {flag, *file});
  }
  return args;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

/// How long the load runs by its flags, if they say (-z, --stages, -timeout).
std::optional<std::chrono::milliseconds> load_length(const Options& load) {
  if (!load.duration.empty()) return parse_duration(load.duration, "-z");
  if (!load.stages.empty()) {
    std::chrono::milliseconds total{0};
    for (const auto& stage : parse_stages(load.stages).stages) total += stage.duration;
    return total;
  }
  if (load.run_timeout_s > 0) {
    return std::chrono::milliseconds(static_cast<long long>(load.run_timeout_s * 1000));
  }
  return std::nullopt;
}

/// The load's flags as a run reads them; those the coordinator sets are refused.
void check_load(ShardsCommand& command) {
  if (command.load_args.empty()) {
    throw UsageError("no load to run: give its flags after --" + std::string(shards_hint));
  }
  const auto load = parse_options(argv_of(command.load_args));
  if (!load.shard.empty() || load.shards != 0 || !load.start_at.empty() || !load.run_id.empty() ||
      !load.told_at.empty() || !load.save_file.empty()) {
    throw UsageError(
        "stampede shards sets --shard, --start-at, --told-at, --run-id and --save itself: drop "
        "them after "
        "-- (--save before -- keeps the merged run)");
  }
  if (!load.sweep.empty() || !load.sweep_rate.empty()) {
    throw UsageError("--shard splits one run; a sweep's steps are each a run of their own");
  }
  if (!command.wait) {
    if (const auto length = load_length(load)) {
      command.wait =
          *length +
          std::chrono::milliseconds(static_cast<long long>(load.request_timeout_s * 1000)) +
          std::chrono::seconds(30);
    }
  }
}

}  // namespace

ShardsCommand parse_shards_options(std::span<const char* const> args) {
  const auto dashes = std::find_if(args.begin(), args.end(),
                                   [](const char* arg) { return std::string_view(arg) == "--"; });
  ShardsWords words;
  const auto values = parse_flags(std::span(args.begin(), dashes), std::span(shards_flags()), words,
                                  "", shards_hint, shards_hint)
                          .values;
  ShardsCommand command;
  command.help = words.help;
  if (command.help) return command;
  command.hosts = split_list(words.hosts, ',');
  if (command.hosts.empty()) {
    throw UsageError("--hosts names the hosts, one shard each" + std::string(shards_hint));
  }
  command.ssh = split_list(words.ssh, ' ');
  if (command.ssh.empty()) throw UsageError("--ssh is empty (give the ssh command, as 'ssh')");
  command.remote_stampede = words.remote_stampede;
  if (!words.lead.empty()) command.lead = parse_duration(words.lead, "--lead");
  if (!words.wait.empty()) command.wait = parse_duration(words.wait, "--wait");
  command.dir = words.dir;
  command.report_args = report_words(words, values);
  if (dashes != args.end()) command.load_args.assign(std::next(dashes), args.end());
  check_load(command);
  // The report's flags are checked now, not after the run.
  auto report_check = command.report_args;
  report_check.emplace_back("shard.stampede");
  command.report_outputs = outputs_of(parse_report_options(argv_of(report_check)));
  return command;
}

CommandDoc shards_command_doc() {
  return {"shards",
          "stampede shards --hosts H1,H2,... [flags] -- LOAD FLAGS",
          "one load run split over hosts reached by ssh (a shard each, --shard I/N), started "
          "together, merged and judged as stampede report does",
          {{where}, {"Output"}},
          docs_of(std::span(shards_flags())),
          "Exit status: as stampede report's; 1 when no shard ran.\n"};
}

}  // namespace stampede::cmd
