// What a command's flags say about themselves: the rows --help, `stampede help FLAG`, the man
// page and docs/flags.md are written from (the parsers bind the same rows: flag_table.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stampede::cmd {

/// One flag, as a user reads it.
struct FlagDoc {
  std::string_view names;     ///< every spelling, as typed: "-c, --concurrency"
  std::string_view value;     ///< what follows it: "N"; empty for a switch; "[S]" if optional
  std::string_view fallback;  ///< the default, as a user reads it; empty: none
  std::string_view help;      ///< what it does, in one sentence
  std::string_view section;   ///< the heading it is listed under
  /// The values it takes, as its usage error says them ("-c must be a whole number from 1 to
  /// 10000000 (...)"); empty when the help says it all.
  std::string_view rule = {};
  /// More lines from a table of choices (-v's verifiers, --output's formats); nullptr: none.
  std::string (*choices)() = nullptr;
};

/// A heading of a command's help, and a line or two on what its flags share.
struct FlagSection {
  std::string_view title;
  std::string_view intro = {};
};

/// One command: `stampede` (a load run, name empty) or `stampede serve`, `report`...
struct CommandDoc {
  std::string_view name;      ///< after "stampede"; empty for the load run
  std::string_view synopsis;  ///< the usage line, after "stampede "
  std::string_view summary;   ///< what the command does, in one line
  std::vector<FlagSection> sections;
  std::vector<FlagDoc> flags;
  std::string_view epilogue = {};  ///< what follows the flags in --help (routes, exit statuses)
};

/// Each command's doc, from its own table (load_flags.cpp, serve_options.cpp,
/// report_options.cpp, shards_options.cpp).
CommandDoc load_command_doc();
CommandDoc serve_command_doc();
CommandDoc report_command_doc();
CommandDoc compare_command_doc();
CommandDoc shards_command_doc();

/// Every command's flags, the load run first: what --help and the references are made of.
std::vector<CommandDoc> command_docs();

/// The command named `name` ("serve"; "" for the load run), or nullptr.
const CommandDoc* find_command(std::string_view name);

/// Whether `name` (without dashes) is one of the spellings in `names`.
bool spelled(std::string_view names, std::string_view name);

/// The long name program_options knows a flag by: the longest of its spellings, without dashes
/// ("-c, --concurrency" -> "concurrency").
std::string long_name(std::string_view names);

/// The names as program_options takes them: "concurrency,c" (a one-letter spelling is the
/// short name).
std::string option_name(std::string_view names);

}  // namespace stampede::cmd
