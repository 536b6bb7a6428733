// A command's flags as one table: each row is a flag's help (FlagDoc), where its value goes and
// the range it must keep, so that parser, range checks and help cannot drift apart.
#pragma once

#include <algorithm>
#include <boost/program_options.hpp>
#include <span>
#include <string>
#include <vector>

#include "cmd/flag_doc.hpp"
#include "cmd/go_flags.hpp"
#include "cmd/options.hpp"

namespace stampede::cmd {

template <class Target>
struct Flag {
  FlagDoc doc;
  /// The value program_options fills: a member of Target, or a typed value read by name.
  boost::program_options::value_semantic* (*bind)(Target&);
  /// Whether a value given keeps doc.rule; nullptr: no range beyond the type, or one checked
  /// where the value is read.
  bool (*ok)(const Target&) = nullptr;
};

/// A Flag's bind: the value goes into the member `Member` of the target.
template <class Target, auto Member>
boost::program_options::value_semantic* into(Target& target) {
  return boost::program_options::value(&(target.*Member));
}

/// The same for a flag that may be repeated: each value is added.
template <class Target, auto Member>
boost::program_options::value_semantic* each_into(Target& target) {
  return boost::program_options::value(&(target.*Member))->composing();
}

/// A Flag's bind for a value read by name from the variables_map (typed T).
template <class Target, class T>
boost::program_options::value_semantic* typed(Target& /*target*/) {
  return boost::program_options::value<T>();
}

template <class Target, std::size_t Extent>
std::vector<FlagDoc> docs_of(std::span<const Flag<Target>, Extent> flags) {
  std::vector<FlagDoc> docs;
  for (const auto& flag : flags) docs.push_back(flag.doc);
  return docs;
}

template <class Target, std::size_t Extent>
boost::program_options::options_description describe(std::span<const Flag<Target>, Extent> flags,
                                                     Target& target) {
  boost::program_options::options_description description;
  for (const auto& flag : flags) {
    description.add_options()(option_name(flag.doc.names).c_str(), flag.bind(target));
  }
  return description;
}

/// The flag whose long name is `name`, or nullptr.
template <class Target, std::size_t Extent>
const Flag<Target>* find_flag(std::span<const Flag<Target>, Extent> flags, std::string_view name) {
  const auto found = std::find_if(flags.begin(), flags.end(), [&](const auto& flag) {
    return long_name(flag.doc.names) == name;
  });
  return found == flags.end() ? nullptr : &*found;
}

/// A command's words as its table reads them: Go's flag forms (as canonical_words() rewrites
/// them), the other words to `positional` (empty: none taken).
struct ParsedWords {
  boost::program_options::variables_map values;
  CanonicalWords words;
};

/// Throws UsageError for the first word that is no flag nor a flag's value (`hint` ends it),
/// for a command that takes none.
void refuse_stray_words(const CanonicalWords& words, std::string_view hint);

/// program_options' error as one line naming the flag as typed; `hint` ends it (" (see
/// stampede --help)").
[[noreturn]] void throw_usage(const boost::program_options::error& error,
                              const CanonicalWords& words, std::string_view hint);

/// Parses `args` into `target` with `flags`, then checks each given flag's range. Throws
/// UsageError for an unknown flag, a value of the wrong type, or a word where none is taken
/// (its message ended with `hint`), and for a value out of its range (its rule, then
/// `rule_hint`).
template <class Target, std::size_t Extent>
ParsedWords parse_flags(std::span<const char* const> args,
                        std::span<const Flag<Target>, Extent> flags, Target& target,
                        const char* positional, std::string_view hint, std::string_view rule_hint) {
  namespace po = boost::program_options;
  const auto description = describe(flags, target);
  ParsedWords parsed{{}, canonical_words(args, description, hint)};
  if (*positional == '\0') refuse_stray_words(parsed.words, hint);
  po::positional_options_description words;
  if (*positional != '\0') words.add(positional, -1);
  const auto style =
      (po::command_line_style::default_style | po::command_line_style::allow_long_disguise) &
      ~po::command_line_style::allow_guessing;
  try {
    const auto options = po::command_line_parser(parsed.words.words)
                             .options(description)
                             .positional(words)
                             .style(style)
                             .run();
    po::store(options, parsed.values);
    po::notify(parsed.values);
  } catch (const po::error& error) {
    const auto* invalid = dynamic_cast<const po::invalid_option_value*>(&error);
    const auto* flag = invalid ? find_flag(flags, invalid->get_option_name().substr(2)) : nullptr;
    if (flag != nullptr && !flag->doc.rule.empty()) {
      throw UsageError(std::string(flag->doc.rule) + std::string(rule_hint));
    }
    throw_usage(error, parsed.words, hint);
  }
  if (parsed.values.count("help") > 0) return parsed;  // help, however wrong the rest
  for (const auto& flag : flags) {
    if (flag.ok != nullptr && parsed.values.count(long_name(flag.doc.names)) > 0 &&
        !flag.ok(target)) {
      throw UsageError(std::string(flag.doc.rule) + std::string(rule_hint));
    }
  }
  return parsed;
}

}  // namespace stampede::cmd
