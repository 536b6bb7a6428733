// `stampede serve`'s command line: its flags and their ranges, and the line it prints on start.
#include "cmd/serve_options.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include <boost/program_options.hpp>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

namespace po = boost::program_options;

constexpr std::string_view usage =
    " (usage: stampede serve [--port 8080] [--bind 127.0.0.1] [--threads N] [--workers N])";

[[noreturn]] void refuse(const std::string& what) { throw UsageError(what + std::string(usage)); }

/// Reads the words; counts are read wide and signed so that "-1" is refused, not wrapped.
po::variables_map read_words(std::span<const char* const> args, std::string& bind) {
  po::options_description description;
  description.add_options()("port", po::value<std::int64_t>())("bind", po::value(&bind))(
      "threads", po::value<std::int64_t>())("workers", po::value<std::int64_t>());
  const auto style =
      (po::command_line_style::default_style | po::command_line_style::allow_long_disguise) &
      ~po::command_line_style::allow_guessing;
  po::variables_map values;
  try {
    const auto parsed = po::command_line_parser(std::vector<std::string>(args.begin(), args.end()))
                            .options(description)
                            .style(style)
                            .run();
    // Without a positional description Boost keeps stray words aside and store() drops them.
    for (const auto& option : parsed.options) {
      if (option.position_key >= 0) refuse("unexpected argument '" + option.value.front() + "'");
    }
    po::store(parsed, values);
    po::notify(values);
  } catch (const po::error& error) {
    refuse(error.what());
  }
  return values;
}

/// The count given for `name`, within [1, most]; `fallback` if it is not given.
unsigned count_of(const po::variables_map& values, const char* name, int most, unsigned fallback) {
  if (values.count(name) == 0) return fallback;
  const auto count = values[name].as<std::int64_t>();
  if (count < 1 || count > most) {
    refuse("--" + std::string(name) + " must be between 1 and " + std::to_string(most));
  }
  return static_cast<unsigned>(count);
}

}  // namespace

ServeCommand parse_serve_options(std::span<const char* const> args) {
  ServeCommand command;
  auto& options = command.server;
  const auto values = read_words(args, options.bind);
  if (values.count("port") != 0) {
    const auto port = values["port"].as<std::int64_t>();
    if (port < 0 || port > std::numeric_limits<unsigned short>::max()) {
      refuse("--port must be between 0 (any free port) and 65535");
    }
    options.port = static_cast<unsigned short>(port);
  }
  command.workers = count_of(values, "workers", max_serve_workers, 1);
  // Workers share the cores: two workers on two cores get a thread each by default.
  const auto cores = std::max(1U, std::thread::hardware_concurrency());
  options.threads =
      count_of(values, "threads", max_serve_threads, std::max(1U, cores / command.workers));
  return command;
}

std::string serve_banner(const ServeCommand& command, unsigned short port) {
  const auto threads = command.server.threads;
  auto how = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  if (command.workers > 1) {
    how = std::to_string(command.workers) + " workers sharing the port, " + how + " each";
  }
  return "stampede serve: listening on http://" + target::host_port(command.server.bind, port) +
         "/ (" + how + "; Ctrl-C stops)";
}

}  // namespace stampede::cmd
