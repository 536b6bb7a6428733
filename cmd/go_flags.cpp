// canonical_words(): Go's `-flag=value`, `-flag value`, `--flag value` and boolean forms, for every
// flag, read from the same options_description that program_options parses.
#include "cmd/go_flags.hpp"

#include <boost/algorithm/string/predicate.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <cctype>

#include "cmd/options.hpp"

namespace stampede::cmd {

namespace po = boost::program_options;

namespace {

/// The flag named `name` (long name first, then the one-letter short name), or nullptr.
const po::option_description* find_flag(const po::options_description& flags,
                                        const std::string& name) {
  if (const auto* flag = flags.find_nothrow(name, false); flag != nullptr) return flag;
  return name.size() == 1 ? flags.find_nothrow("-" + name, false) : nullptr;
}

bool is_boolean(const po::option_description& flag) {
  return dynamic_cast<const po::typed_value<bool>*>(flag.semantic().get()) != nullptr;
}

/// "true" or "false" in any case: go-stress-testing's -d is a string compared so.
bool is_bool_word(std::string_view word) {
  return boost::iequals(word, "true") || boost::iequals(word, "false");
}

/// A boolean's value as program_options reads it: Go's strconv.ParseBool also takes T, F,
/// TRUE, True and the like, which program_options would not.
std::string bool_value(std::string_view word) {
  if (boost::iequals(word, "t") || boost::iequals(word, "true")) return "true";
  if (boost::iequals(word, "f") || boost::iequals(word, "false")) return "false";
  return std::string(word);
}

/// A flag whose value may be left out (--hold [S]): it takes the next word only if that is a
/// number, so `--hold -u URL`, `--hold URL` and `--hold 60 -u URL` all read as meant.
bool is_optional_value(const po::option_description& flag) {
  return flag.semantic()->min_tokens() == 0;
}

bool is_number(std::string_view word) {
  return !word.empty() && (std::isdigit(static_cast<unsigned char>(word[0])) != 0 ||
                           (word[0] == '.' && word.size() > 1));
}

}  // namespace

CanonicalWords canonical_words(std::span<const char* const> args,
                               const po::options_description& flags, std::string_view hint) {
  CanonicalWords out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view word = args[i];
    if (word == "--") {  // Go stops reading flags here; what follows is positional
      out.words.insert(out.words.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    const auto dashes = word.starts_with("--") ? 2U : word.starts_with("-") ? 1U : 0U;
    const auto equals = word.find('=');
    const auto name = std::string(word.substr(dashes, equals - dashes));
    const auto* flag = dashes > 0 && !name.empty() ? find_flag(flags, name) : nullptr;
    if (flag == nullptr) {
      out.words.emplace_back(word);
      continue;
    }
    const auto spelled = std::string(word.substr(0, equals));
    std::string value;
    if (equals != std::string_view::npos) {
      value = word.substr(equals + 1);
      if (is_boolean(*flag)) value = bool_value(value);
    } else if (is_boolean(*flag)) {
      value = i + 1 < args.size() && is_bool_word(args[i + 1]) ? bool_value(args[++i]) : "true";
    } else if (is_optional_value(*flag)) {
      // Alone it means "no limit", spelled so that program_options does not take the next
      // word (a URL, say) as its value.
      value = i + 1 < args.size() && is_number(args[i + 1]) ? args[++i] : "inf";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw UsageError("flag " + spelled + " needs a value" + std::string(hint));
    }
    out.typed[flag->long_name()] = spelled;
    if (value.empty()) {  // program_options refuses `--name=`, not `--name ""`
      out.words.push_back("--" + flag->long_name());
      out.words.emplace_back();
    } else {
      out.words.push_back("--" + flag->long_name() + "=" + value);
    }
  }
  return out;
}

}  // namespace stampede::cmd
