// read_command(): curl's option syntax: `--long`, clustered `-sSL`, `-XPOST`, `--no-<flag>`.
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
    {"connect-timeout", &CurlCommand::connect_timeout}};
const std::map<std::string_view, List> lists{{"url", &CurlCommand::urls},
                                             {"header", &CurlCommand::headers},
                                             {"cookie", &CurlCommand::cookies}};
const std::map<std::string_view, Flag> flags{{"get", &CurlCommand::get},
                                             {"head", &CurlCommand::head},
                                             {"insecure", &CurlCommand::insecure},
                                             {"compressed", &CurlCommand::compressed},
                                             {"location", &CurlCommand::location}};
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
  } else if (name == "http2" || name == "http1.1" || name == "http2-prior-knowledge") {
    command.http_version = negated             ? model::HttpVersion::any
                           : name == "http2"   ? model::HttpVersion::http2
                           : name == "http1.1" ? model::HttpVersion::http1_1
                                               : model::HttpVersion::http2_prior_knowledge;
  }
}

std::string spelled(const OptionSpec& spec) { return "--" + std::string(spec.name); }

class Reader {
 public:
  explicit Reader(const Words& words) : words_(words) { command_.where = words.front().where; }

  CurlCommand run() {
    while (++at_ < words_.size()) {
      const auto& word = words_[at_];
      if (word.text.starts_with("--") && word.text.size() > 2) {
        read_long(word);
      } else if (word.text.starts_with("-") && word.text.size() > 1) {
        read_short(word);
      } else {
        command_.urls.push_back({word.text, word.where});
      }
    }
    return std::move(command_);
  }

 private:
  void read_long(const Word& word) {
    std::string_view name(word.text);
    name.remove_prefix(2);
    const auto* spec = find_long_option(name);
    bool negated = false;
    if (spec == nullptr && name.starts_with("no-")) {
      spec = find_long_option(name.substr(3));
      negated = spec != nullptr && !spec->takes_argument;
      if (!negated) spec = nullptr;
    }
    if (spec == nullptr) throw ParseError(word.where, "unknown curl option '" + word.text + "'");
    if (!spec->takes_argument) return use(*spec, word.where, nullptr, negated);
    if (at_ + 1 == words_.size()) {
      throw ParseError(word.where, "curl option " + word.text + " needs an argument");
    }
    const auto& next = words_[++at_];
    const Argument argument{next.text, next.where};
    use(*spec, word.where, &argument, false);
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
    if (spec.handling == Handling::applied) {
      if (argument != nullptr) {
        apply_value(command_, spec.name, *argument);
      } else {
        apply_flag(command_, spec.name, negated);
      }
    } else if (spec.handling == Handling::warned) {
      command_.warnings.push_back(
          {where, "curl option " + spelled(spec) + " is not applied by stampede (ignored)"});
    }
  }

  const Words& words_;
  std::size_t at_ = 0;
  CurlCommand command_;
};

}  // namespace

CurlCommand read_command(const Words& words) { return Reader(words).run(); }

}  // namespace stampede::curl
