// Go's flag syntax (go-stress-testing's) rewritten into words program_options reads one way.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace stampede::cmd {

/// The command line with every flag in one form, and how the user spelled each.
struct CanonicalWords {
  std::vector<std::string> words;  ///< `--long-name=value` for each flag, other words as typed
  std::map<std::string, std::string, std::less<>> typed;  ///< long name -> the flag as typed
};

/// Rewrites the flags of `flags` as Go's flag package reads them: one dash or two, the short or
/// the long name, the value after `=` or in the next word (whatever it starts with); a boolean
/// takes a value only after `=` (or, as go-stress-testing's `-d true`, a next word true/false).
/// Words after `--`, unknown words and the positional URL are left as typed. Throws UsageError
/// for a flag at the end that needs a value (its message ended with `hint`).
CanonicalWords canonical_words(std::span<const char* const> args,
                               const boost::program_options::options_description& flags,
                               std::string_view hint);

}  // namespace stampede::cmd
