// throw_usage(): program_options' errors as stampede's one-line usage errors.
#include "cmd/flag_table.hpp"

namespace stampede::cmd {

void refuse_stray_words(const CanonicalWords& words, std::string_view hint) {
  // canonical_words() wrote each flag and its value as one `--name=value` word, but an empty
  // value as a word of its own.
  for (const auto& word : words.words) {
    if (!word.empty() && !word.starts_with("-")) {
      throw UsageError("unexpected argument '" + word + "'" + std::string(hint));
    }
  }
}

void throw_usage(const boost::program_options::error& error, const CanonicalWords& words,
                 std::string_view hint) {
  // Boost's messages name the option by its long name; ours name the flag as typed.
  std::string message = error.what();
  if (message.starts_with("unrecognised option")) message.replace(0, 19, "unknown flag");
  for (const auto& [name, typed] : words.typed) {
    const auto canonical = "'--" + name + "'";
    if (const auto at = message.find(canonical); at != std::string::npos) {
      message.replace(at, canonical.size(), "'" + typed + "'");
    }
  }
  throw UsageError(message + std::string(hint));
}

}  // namespace stampede::cmd
