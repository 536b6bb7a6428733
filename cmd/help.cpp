// Help for a terminal, written from the commands' flag tables: --help and `stampede help FLAG`.
#include "cmd/help.hpp"

#include <cstdio>
#include <string_view>

#include "cmd/options.hpp"
#include "cmd/reference.hpp"

namespace stampede::cmd {
namespace {

// Where a flag's help starts, and the width it is wrapped to.
constexpr std::size_t help_column = 27;
constexpr std::size_t width = 100;

/// `text` wrapped to `width`, each line indented by `indent` blanks (the first too, unless
/// `first` is already on the line).
std::string wrapped(std::string_view text, std::size_t indent, std::size_t first) {
  std::string out;
  std::size_t column = first;
  while (!text.empty()) {
    const auto space = text.find(' ');
    const auto word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (column > indent && column + 1 + word.size() > width) {
      out += "\n";
      column = 0;
    }
    if (column < indent) {
      out += std::string(indent - column, ' ');
      column = indent;
    } else if (column > indent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out + "\n";
}

/// One flag's lines in --help: its spellings and value, then its help, default and choices.
std::string flag_lines(const FlagDoc& flag) {
  auto left =
      "  " + std::string(flag.names) + (flag.value.empty() ? "" : " ") + std::string(flag.value);
  std::string help(flag.help);
  if (!flag.fallback.empty()) {
    // Before the colon that introduces choices: "how a response is judged (default: x):".
    const bool listing = help.ends_with(':');
    if (listing) help.pop_back();
    help += " (default: " + std::string(flag.fallback) + ")" + (listing ? ":" : "");
  }
  std::string text;
  if (left.size() + 1 > help_column) {
    text = left + "\n";
    left.clear();
  }
  text += left + wrapped(help, help_column, left.size());
  if (flag.choices != nullptr) {
    const auto choices = flag.choices();
    for (std::size_t at = 0; at < choices.size();) {
      const auto end = choices.find('\n', at);
      text += wrapped(std::string_view(choices).substr(at, end - at), help_column + 2, 0);
      at = end == std::string::npos ? choices.size() : end + 1;
    }
  }
  return text;
}

/// The load run's examples and its other commands, before its flags.
constexpr std::string_view load_preamble =
    R"(  stampede serve [flags]                   the built-in target server, for trying any of this
  stampede report FILE... [flags]          saved runs shown again; several merge into one
  stampede compare A B [flags]             run B beside the baseline A, with bounds
  stampede shards --hosts H1,H2 -- FLAGS   one run split over hosts by ssh, merged
  stampede help [FLAG | COMMAND]           more on one flag, or a command's flags

Examples (against stampede serve --port 8080 --tls-port 8443):
  stampede -c 100 -n 100 -u http://127.0.0.1:8080/
  stampede -c 100 -z 30s -k -u http://127.0.0.1:8080/              (as many as fit in 30 s)
  stampede --rate 5000 -c 200 -z 60s -k -u http://127.0.0.1:8080/  (5000 a second, on a schedule)
  stampede --stages 30s:100,60s:500,30s:0 -k -u http://127.0.0.1:8080/  (ramp up, hold, down)
  stampede -c 50 -n 200 -u https://localhost:8443/json --insecure -H 'Authorization: Bearer x' \
           -data '{"a":1}' -v json
  stampede -c 50 -z 30s -k -u http://127.0.0.1:8080/ --threshold 'p99<200ms' --save today.stampede
  stampede --sweep auto --slo 'p99<100ms,errors<1%' -k -u http://127.0.0.1:8080/  (find the knee)
  stampede -c 10 -n 100 -k -p request.curl.sh                      (replay a "Copy as cURL" file)
  stampede -c 1000 -n 10 --hold 30 -u ws://127.0.0.1:8080/echo -data hi  (WebSocket, held 30 s)
  stampede -c 200 -n 500 -http2 -m 4 -u http://127.0.0.1:8080/     (200 users on 4 connections)
  stampede -c 10 -n 100 -u grpc://127.0.0.1:8080/stampede.Echo/Echo --data-file msg.bin
)";

}  // namespace

std::string command_help(const CommandDoc& command) {
  const bool load = command.name.empty();
  std::string text = wrapped("stampede" + (load ? "" : " " + std::string(command.name)) + ": " +
                                 std::string(command.summary),
                             0, 0) +
                     "\nUsage:\n  " + std::string(command.synopsis) + "\n";
  if (load) text += load_preamble;
  for (const auto& section : command.sections) {
    text += "\n" + std::string(section.title) + ":\n";
    if (!section.intro.empty()) text += wrapped(section.intro, 2, 0);
    for (const auto& flag : command.flags) {
      if (flag.section == section.title) text += flag_lines(flag);
    }
  }
  if (!command.epilogue.empty()) text += "\n" + std::string(command.epilogue);
  return text;
}

std::string flag_help(std::string_view flag) {
  flag.remove_prefix(std::min(flag.find_first_not_of('-'), flag.size()));
  std::string text;
  for (const auto& command : command_docs()) {
    for (const auto& doc : command.flags) {
      if (!spelled(doc.names, flag)) continue;
      const auto where =
          command.name.empty() ? std::string("stampede") : "stampede " + std::string(command.name);
      text += (text.empty() ? "" : "\n") + flag_lines(doc) +
              wrapped(where + ", under \"" + std::string(doc.section) + "\"", help_column, 0);
      if (!doc.rule.empty()) text += wrapped("Takes: " + std::string(doc.rule), help_column, 0);
    }
  }
  return text;
}

int run_help(std::span<const char* const> args) {
  const std::string_view what = args.empty() ? "" : args[0];
  if (args.size() > 1) throw UsageError("help takes one word: a flag, a command, or nothing");
  std::string text;
  if (what == "--markdown") {
    text = flags_markdown();
  } else if (what == "--readme") {
    text = readme_flags();
  } else if (what == "--man") {
    text = man_page();
  } else if (const auto* command = find_command(what)) {
    text = command_help(*command);
  } else {
    text = flag_help(what);
    if (text.empty()) {
      throw UsageError("no flag or command named '" + std::string(what) +
                       "' (stampede --help lists them)");
    }
  }
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace stampede::cmd
