// parse_options(): Boost.Program_options with Go's flag conventions layered on top.
#include "cmd/options.hpp"

#include <boost/program_options.hpp>
#include <map>

#include "report/formats.hpp"

namespace stampede::cmd {

namespace po = boost::program_options;

namespace {

/// Go's flag package lets a boolean take a value (`-k=true`, go-stress-testing's `-d true`);
/// program_options does not, so such words are rewritten to `--name=value` first.
const std::map<std::string, std::string, std::less<>> bool_flags{{"k", "keepalive"},
                                                                 {"keepalive", "keepalive"},
                                                                 {"d", "debug"},
                                                                 {"debug", "debug"},
                                                                 {"redirect", "redirect"},
                                                                 {"insecure", "insecure"},
                                                                 {"h", "help"},
                                                                 {"help", "help"},
                                                                 {"version", "version"},
                                                                 {"print-request", "print-request"},
                                                                 {"http2", "http2"}};

/// go-stress-testing spells its curl-file flag `-p`; `--p` is taken as the same flag.
std::string rename_alias(std::string_view word) {
  if (word == "--p") return "--curl";
  if (word.starts_with("--p=")) return "--curl=" + std::string(word.substr(4));
  return std::string(word);
}

bool is_bool_word(std::string_view word) { return word == "true" || word == "false"; }

std::vector<std::string> normalize_bools(std::span<const char* const> args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view word = args[i];
    const auto dashes = word.starts_with("--") ? 2U : word.starts_with("-") ? 1U : 0U;
    const auto name = word.substr(dashes, word.find('=') - dashes);
    const auto flag = bool_flags.find(name);
    if (dashes == 0 || word == "-" || word == "--" || flag == bool_flags.end()) {
      out.push_back(rename_alias(word));
      continue;
    }
    std::string value = "true";
    if (const auto equals = word.find('='); equals != std::string_view::npos) {
      value = word.substr(equals + 1);
    } else if (i + 1 < args.size() && is_bool_word(args[i + 1])) {
      value = args[++i];
    }
    out.push_back("--" + flag->second + "=" + value);
  }
  return out;
}

po::options_description describe(Options& o) {
  po::options_description d;
  d.add_options()("concurrency,c", po::value(&o.users))("requests,n", po::value(&o.requests))(
      "url,u", po::value(&o.url))("header,H", po::value(&o.headers)->composing())(
      "data", po::value(&o.data))("method,X", po::value(&o.method))(
      "keepalive", po::value(&o.keep_alive))("request-timeout,t", po::value(&o.request_timeout_s))(
      "timeout", po::value(&o.run_timeout_s))("cpuNumber", po::value(&o.threads))(
      "verify,v", po::value(&o.verify))("code", po::value(&o.code))(
      "redirect", po::value(&o.redirect))("debug", po::value(&o.debug))(
      "insecure", po::value(&o.insecure))("http2", po::value(&o.http2))(
      "output", po::value(&o.output))("help", po::value(&o.help))("version", po::value(&o.version))(
      "curl,p", po::value(&o.curl_file))("print-request", po::value(&o.print_request));
  return d;
}

/// Boost's messages name the option but not the fix; ours say both, on one line.
[[noreturn]] void rethrow_as_usage(const po::error& error) {
  std::string message = error.what();
  if (message.starts_with("unrecognised option")) message.replace(0, 19, "unknown flag");
  throw UsageError(message + " (see stampede --help)");
}

/// Longest -t or -timeout: longer makes no sense for a load test, and the conversion of the
/// seconds to a duration must not overflow.
constexpr double max_seconds = 365.0 * 24 * 3600;

void check_ranges(const Options& o) {
  if (o.users < 1) throw UsageError("-c must be at least 1 (the number of concurrent users)");
  if (o.requests < 0 || (o.requests == 0 && o.run_timeout_s <= 0)) {
    throw UsageError("-n must be at least 1 (requests per user; -n 0 needs -timeout)");
  }
  // Written so that NaN fails too.
  if (!(o.request_timeout_s > 0 && o.request_timeout_s <= max_seconds)) {
    throw UsageError("-t must be a positive number of seconds, at most a year");
  }
  if (!(o.run_timeout_s >= 0 && o.run_timeout_s <= max_seconds)) {
    throw UsageError("-timeout must be a positive number of seconds, at most a year");
  }
  if (o.threads < 0) throw UsageError("-cpuNumber must be at least 1");
  if (o.verify != "statusCode" && o.verify != "json") {
    throw UsageError("unknown verifier '" + o.verify + "' (use -v statusCode or -v json)");
  }
  if (report::find_format(o.output) == nullptr) {
    throw UsageError("unknown output '" + o.output + "' (use " +
                     report::format_choices("--output ") + ")");
  }
}

}  // namespace

Options parse_options(std::span<const char* const> args) {
  Options options;
  const auto words = normalize_bools(args);
  const auto description = describe(options);
  po::positional_options_description positional;
  positional.add("url", 1);
  const auto style =
      (po::command_line_style::default_style | po::command_line_style::allow_long_disguise) &
      ~po::command_line_style::allow_guessing;
  try {
    po::variables_map values;
    po::store(po::command_line_parser(words)
                  .options(description)
                  .positional(positional)
                  .style(style)
                  .run(),
              values);
    po::notify(values);
    options.has_data = values.count("data") > 0;
    options.has_request_timeout = values.count("request-timeout") > 0;
  } catch (const po::error& error) {
    rethrow_as_usage(error);
  }
  if (!options.help && !options.version) check_ranges(options);
  return options;
}

}  // namespace stampede::cmd
