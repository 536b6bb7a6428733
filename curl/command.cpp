// read_commands(): curl's option syntax: `--long` (or a prefix), clustered `-sSL`, `-XPOST`,
// `--no-<flag>`, and `--next`.
#include "curl/command.hpp"

#include <map>

#include "curl/option_table.hpp"

namespace stampede::curl {

namespace {

using Single = std::optional<Argument> CurlCommand::*;
using List = std::vector<Argument> CurlCommand::*;
using Flag = bool CurlCommand::*;

const std::map<std::string_view, Single> singles{
    {"request", &CurlCommand::method},
    {"user", &CurlCommand::user},
    {"user-agent", &CurlCommand::user_agent},
    {"referer", &CurlCommand::referer},
    {"upload-file", &CurlCommand::upload_file},
    {"max-time", &CurlCommand::max_time},
    {"connect-timeout", &CurlCommand::connect_timeout},
    {"range", &CurlCommand::range},
    {"oauth2-bearer", &CurlCommand::bearer},
    {"time-cond", &CurlCommand::time_condition},
    {"proto-default", &CurlCommand::default_protocol},
    {"request-target", &CurlCommand::request_target},
    {"unix-socket", &CurlCommand::unix_socket},
    {"abstract-unix-socket", &CurlCommand::unix_socket}};
const std::map<std::string_view, List> lists{
    {"url", &CurlCommand::urls},         {"header", &CurlCommand::headers},
    {"cookie", &CurlCommand::cookies},   {"url-query", &CurlCommand::url_queries},
    {"resolve", &CurlCommand::resolves}, {"connect-to", &CurlCommand::connect_tos}};
const std::map<std::string_view, Flag> flags{{"get", &CurlCommand::get},
                                             {"head", &CurlCommand::head},
                                             {"insecure", &CurlCommand::insecure},
                                             {"compressed", &CurlCommand::compressed},
                                             {"no-sessionid", &CurlCommand::no_sessionid},
                                             {"location", &CurlCommand::location},
                                             {"path-as-is", &CurlCommand::path_as_is},
                                             {"digest", &CurlCommand::digest}};
const std::map<std::string_view, DataKind> data_kinds{{"data", DataKind::ascii},
                                                      {"data-ascii", DataKind::ascii},
                                                      {"data-raw", DataKind::raw},
                                                      {"data-binary", DataKind::binary},
                                                      {"data-urlencode", DataKind::urlencode},
                                                      {"json", DataKind::json}};

/// Records an applied option that takes an argument.
void apply_value(CurlCommand& command, std::string_view name, const Argument& argument) {
  if (const auto s = singles.find(name); s != singles.end()) {
    command.*(s->second) = argument;
    if (name.ends_with("unix-socket")) command.abstract_socket = name == "abstract-unix-socket";
  } else if (const auto l = lists.find(name); l != lists.end()) {
    (command.*(l->second)).push_back(argument);
  } else if (const auto d = data_kinds.find(name); d != data_kinds.end()) {
    command.data.push_back({d->second, argument});
  } else if (name == "form" || name == "form-string") {
    command.form.push_back({name == "form-string", argument});
  }
}

/// Records an applied flag, or its `--no-` form.
void apply_flag(CurlCommand& command, std::string_view name, bool negated) {
  if (const auto f = flags.find(name); f != flags.end()) {
    command.*(f->second) = !negated;
  } else if (name == "basic") {
    command.basic = !negated;
  } else if (name.starts_with("http")) {
    command.http_version = negated             ? model::HttpVersion::any
                           : name == "http2"   ? model::HttpVersion::http2
                           : name == "http1.1" ? model::HttpVersion::http1_1
                           : name == "http1.0" ? model::HttpVersion::http1_0
                                               : model::HttpVersion::http2_prior_knowledge;
  }
}

/// The options whose long name starts with `prefix`, or the one named exactly so.
std::vector<const OptionSpec*> named(std::string_view prefix) {
  if (const auto* exact = find_long_option(prefix)) return {exact};
  return options_starting_with(prefix);
}

std::string spelled(const OptionSpec& spec) { return "--" + std::string(spec.name); }

class Reader {
 public:
  explicit Reader(const Words& words) : words_(words) {
    commands_.emplace_back().where = words.front().where;
  }

  std::vector<CurlCommand> run() {
    while (++at_ < words_.size()) {
      const auto& word = words_[at_];
      if (word.text.starts_with("--") && word.text.size() > 2) {
        read_long(word);
      } else if (word.text.starts_with("-") && word.text.size() > 1) {
        read_short(word);
      } else {
        commands_.back().urls.push_back({word.text, word.where});
      }
    }
    return std::move(commands_);
  }

 private:
  void read_long(const Word& word) {
    std::string_view name(word.text);
    name.remove_prefix(2);
    bool negated = false;
    const auto* spec = long_option(word, name, negated);
    if (!spec->takes_argument) return use(*spec, word.where, nullptr, negated);
    if (at_ + 1 == words_.size()) {
      throw ParseError(word.where, "curl option " + word.text + " needs an argument");
    }
    const auto& next = words_[++at_];
    const Argument argument{next.text, next.where};
    use(*spec, word.where, &argument, false);
  }

  /// The option `--name` means: its full name, a prefix of one name (`--sil`), or `--no-` and
  /// a flag's name or prefix. Throws at an unknown or ambiguous name.
  static const OptionSpec* long_option(const Word& word, std::string_view name, bool& negated) {
    auto candidates = named(name);
    if (candidates.empty() && name.starts_with("no-")) {
      candidates = named(name.substr(3));
      std::erase_if(candidates, [](const OptionSpec* o) { return o->takes_argument; });
      negated = true;
    }
    if (candidates.empty()) throw ParseError(word.where, "unknown curl option '" + word.text + "'");
    if (candidates.size() > 1) {
      std::string names;
      for (const auto* o : candidates) names += (names.empty() ? "" : ", ") + spelled(*o);
      throw ParseError(word.where, "ambiguous curl option '" + word.text + "' (" + names + ")");
    }
    return candidates.front();
  }

  /// `-sSL`: letters until one takes an argument, which is the rest of the word or the next word.
  void read_short(const Word& word) {
    for (std::size_t i = 1; i < word.text.size(); ++i) {
      const Position where{word.where.line, word.where.column + static_cast<int>(i)};
      const auto* spec = find_short_option(word.text[i]);
      if (spec == nullptr) {
        throw ParseError(where, std::string("unknown curl option '-") + word.text[i] + "'");
      }
      if (!spec->takes_argument) {
        use(*spec, where, nullptr, false);
        continue;
      }
      if (i + 1 < word.text.size()) {
        const Argument argument{word.text.substr(i + 1), {where.line, where.column + 1}};
        return use(*spec, where, &argument, false);
      }
      if (at_ + 1 == words_.size()) {
        throw ParseError(where, "curl option -" + std::string(1, word.text[i]) + " (" +
                                    spelled(*spec) + ") needs an argument");
      }
      const auto& next = words_[++at_];
      const Argument argument{next.text, next.where};
      return use(*spec, where, &argument, false);
    }
  }

  void use(const OptionSpec& spec, Position where, const Argument* argument, bool negated) {
    auto& command = commands_.back();
    if (spec.name == "next") {
      commands_.emplace_back().where = where;
    } else if (spec.handling == Handling::applied) {
      if (argument != nullptr) {
        apply_value(command, spec.name, *argument);
      } else {
        apply_flag(command, spec.name, negated);
      }
    } else if (spec.handling == Handling::warned) {
      command.warnings.push_back(
          {where, "curl option " + spelled(spec) + " is not applied by stampede (ignored)"});
    }
  }

  const Words& words_;
  std::size_t at_ = 0;
  std::vector<CurlCommand> commands_;
};

}  // namespace

std::vector<CurlCommand> read_commands(const Words& words) { return Reader(words).run(); }

}  // namespace stampede::curl
