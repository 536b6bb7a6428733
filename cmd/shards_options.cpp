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

constexpr std::array report_flags{"--output", "--threshold", "--save", "-e", "--html"};

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
    throw UsageError("no load to run: give its flags after --, as in " + shards_usage());
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

std::string shards_usage() {
  return "stampede shards --hosts H1,H2,... [--ssh 'ssh -p 2222'] [--stampede PATH] [--lead 5s] "
         "[--wait D] [--dir DIR] [--output FORMAT] [--threshold EXPR]... [--save FILE] -- "
         "LOAD FLAGS";
}

ShardsCommand parse_shards_options(std::span<const char* const> args) {
  ShardsCommand command;
  std::size_t i = 0;
  for (; i < args.size() && std::string_view(args[i]) != "--"; ++i) {
    std::string flag = args[i];
    std::string value;
    if (const auto equals = flag.find('='); flag.starts_with("--") && equals != std::string::npos) {
      value = flag.substr(equals + 1);
      flag.resize(equals);
    } else if (i + 1 < args.size() && std::string_view(args[i + 1]) != "--") {
      value = args[++i];
    } else {
      throw UsageError(flag + " needs a value (usage: " + shards_usage() + ")");
    }
    if (flag == "--hosts") {
      command.hosts = split_list(value, ',');
    } else if (flag == "--ssh") {
      command.ssh = split_list(value, ' ');
    } else if (flag == "--stampede") {
      command.remote_stampede = value;
    } else if (flag == "--lead") {
      command.lead = parse_duration(value, "--lead");
    } else if (flag == "--wait") {
      command.wait = parse_duration(value, "--wait");
    } else if (flag == "--dir") {
      command.dir = value;
    } else if (std::find(report_flags.begin(), report_flags.end(), flag) != report_flags.end()) {
      command.report_args.push_back(flag);
      command.report_args.push_back(value);
    } else {
      throw UsageError("unknown flag '" + flag + "' (usage: " + shards_usage() + ")");
    }
  }
  if (command.hosts.empty()) {
    throw UsageError("--hosts names the hosts, one shard each: " + shards_usage());
  }
  if (command.ssh.empty()) throw UsageError("--ssh is empty (give the ssh command, as 'ssh')");
  for (++i; i < args.size(); ++i) command.load_args.emplace_back(args[i]);
  check_load(command);
  // The report's flags are checked now, not after the run.
  auto report_check = command.report_args;
  report_check.emplace_back("shard.stampede");
  command.report_outputs = outputs_of(parse_report_options(argv_of(report_check)));
  return command;
}

}  // namespace stampede::cmd
