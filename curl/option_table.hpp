// Every option of curl 7.88.1: its names, whether it takes an argument, and what stampede does.
#pragma once

#include <string_view>
#include <vector>

namespace stampede::curl {

/// What stampede does with an option it finds in a curl file.
enum class Handling : unsigned char {
  applied,  ///< changes the request exactly as curl would
  ignored,  ///< only changes curl's own output or files (-s, -v, -o, ...): quietly skipped
  warned,   ///< would change what curl sends or how; stampede does not, and says so
};

/// One curl option as `curl --help all` lists it.
struct OptionSpec {
  std::string_view name;  ///< the long name, without `--`
  char letter;            ///< the short name, or '\0'
  bool takes_argument;
  Handling handling;
};

/// The option with this long name (without `--`), or nullptr when curl has none.
const OptionSpec* find_long_option(std::string_view name);

/// Every option whose long name starts with `prefix`, in the table's order.
std::vector<const OptionSpec*> options_starting_with(std::string_view prefix);

/// The option with this short letter, or nullptr when curl has none.
const OptionSpec* find_short_option(char letter);

}  // namespace stampede::curl
