// The bash dialect: words as bash splits them, `$NAME` from the environment, here-documents.
#include "curl/shell_words.hpp"

#include <cctype>
#include <cstdlib>

#include "curl/ansi_c.hpp"
#include "curl/text_cursor.hpp"

namespace stampede::curl {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_operator(char c) {
  return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')';
}
bool starts_name(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool in_name(char c) { return starts_name(c) || std::isdigit(static_cast<unsigned char>(c)); }

/// The word being read, and the words it becomes: an unquoted expansion splits at blanks as
/// bash's word splitting does, and a word that is empty and never quoted is no word at all.
class WordBuilder {
 public:
  WordBuilder(Words& out, Position where) : out_(out), word_{{}, where} {}

  std::string& text() { return word_.text; }
  void quoted() { kept_ = true; }
  void add(char c) { word_.text += c; }
  void add_split(const std::string& value) {
    for (const char c : value) {
      if (c == ' ' || c == '\t' || c == '\n') {
        finish();
        word_.text.clear();
        kept_ = false;
      } else {
        word_.text += c;
      }
    }
  }
  void finish() {
    if (kept_ || !word_.text.empty()) out_.push_back(word_);
  }

 private:
  Words& out_;
  Word word_;
  bool kept_ = false;
};

/// A here-document whose body starts after the current line.
struct PendingDocument {
  std::size_t command;  ///< its index in the commands read so far
  std::string delimiter;
  bool strip_tabs = false;  ///< `<<-`
  bool expand = true;       ///< the delimiter was not quoted
  Position where;
};

class BashSplitter {
 public:
  BashSplitter(std::string_view text, const Environment& environment,
               std::vector<Warning>& warnings, Position start = {})
      : in_(text, start), environment_(environment), warnings_(warnings) {}

  std::vector<ShellCommand> run() {
    std::vector<ShellCommand> commands(1);
    while (!in_.done()) {
      const char c = in_.peek();
      if (is_blank(c) || c == '\r') {
        in_.next();
      } else if (c == '\\' && in_.newline_at(1)) {
        in_.skip_continuation();
      } else if (c == '\n' || c == ';' || c == '&' || c == '|') {
        in_.next();
        if (c == '\n') read_documents(commands);
        if (!commands.back().words.empty() || commands.back().input) commands.emplace_back();
      } else if (c == '#') {
        read_comment(commands.back());
      } else if (c == '<' || c == '>') {
        read_redirection(commands);
      } else if (c == '(' || c == ')') {
        throw ParseError(in_.where(), std::string("unsupported shell syntax '") + c + "'");
      } else {
        read_word(commands.back().words);
      }
    }
    read_documents(commands);
    if (commands.back().words.empty() && !commands.back().directives.empty()) {
      throw ParseError(commands.back().directives.front().where,
                       "a '# stampede:' line must come before the curl command it is for");
    }
    std::erase_if(commands, [](const ShellCommand& c) { return c.words.empty(); });
    return commands;
  }

  /// An unquoted here-document's body: `$NAME` expands, `\` escapes only `$`, `` ` ``, `\` and a
  /// line end.
  std::string expand_document() {
    std::string out;
    read_expanding(out, false);
    return out;
  }

 private:
  /// A comment, to the end of its line; `# stampede: ...` is kept for `command`.
  void read_comment(ShellCommand& command) {
    const auto where = in_.where();
    std::string text;
    while (!in_.done() && !in_.newline_at(0)) text += in_.next();
    constexpr std::string_view mark = "stampede:";
    const auto start = text.find_first_not_of("# \t");
    if (start == std::string::npos || std::string_view(text).substr(start, mark.size()) != mark) {
      return;
    }
    const auto value = start + mark.size();
    command.directives.push_back(
        {text.substr(value), {where.line, where.column + static_cast<int>(value)}});
  }

  /// `< file` and the here-forms give the command its input; `> file`, `2>&1` and the like
  /// only move curl's output, so their target word is dropped.
  void read_redirection(std::vector<ShellCommand>& commands) {
    const auto where = in_.where();
    auto& command = commands.back();
    if (in_.peek() == '<' && in_.peek_or_nul(1) == '<') {
      in_.next();
      in_.next();
      if (in_.peek_or_nul(0) == '<') {
        in_.next();
        command.input = Input{false, target_word() + "\n", where};
      } else {
        read_document_start(commands.size() - 1, where);
      }
      return;
    }
    if (in_.peek() == '<' && in_.peek_or_nul(1) != '&' && in_.peek_or_nul(1) != '>') {
      in_.next();
      command.input = Input{true, target_word(), where};
      return;
    }
    while (!in_.done() && (in_.peek() == '<' || in_.peek() == '>' || in_.peek() == '&')) in_.next();
    (void)target_word();
  }

  /// The word a redirection names, joined as one (bash does not split it).
  std::string target_word() {
    while (!in_.done() && is_blank(in_.peek())) in_.next();
    Words words;
    if (!in_.done() && !in_.newline_at(0)) read_word(words);
    std::string text;
    for (const auto& word : words) text += (text.empty() ? "" : " ") + word.text;
    return text;
  }

  void read_document_start(std::size_t command, Position where) {
    PendingDocument document{command, {}, false, true, where};
    if (in_.peek_or_nul(0) == '-') {
      in_.next();
      document.strip_tabs = true;
    }
    while (!in_.done() && is_blank(in_.peek())) in_.next();
    const auto start = in_.where();
    while (!in_.done() && !is_blank(in_.peek()) && !in_.newline_at(0) && !is_operator(in_.peek())) {
      const char c = in_.next();
      if (c == '\'' || c == '"' || c == '\\') {
        document.expand = false;  // bash reads a quoted delimiter's body as is
      } else {
        document.delimiter += c;
      }
    }
    if (document.delimiter.empty()) {
      throw ParseError(start, "a here-document (<<) needs a delimiter word");
    }
    pending_.push_back(std::move(document));
  }

  /// The bodies of the here-documents started on the line just ended, in order.
  void read_documents(std::vector<ShellCommand>& commands) {
    for (const auto& document : pending_) {
      const auto start = in_.where();
      std::string body;
      bool closed = false;
      while (!in_.done() && !closed) {
        std::string line;
        while (!in_.done() && !in_.newline_at(0)) line += in_.next();
        if (!in_.done()) in_.skip_newline();
        if (document.strip_tabs) line.erase(0, line.find_first_not_of('\t'));
        closed = line == document.delimiter;
        if (!closed) body += line + "\n";
      }
      if (!closed) {
        warnings_.push_back(
            {document.where, "here-document ended by the end of the file (wanted '" +
                                 document.delimiter + "'), as bash reads it"});
      }
      if (document.expand) {
        body = BashSplitter(body, environment_, warnings_, start).expand_document();
      }
      commands[document.command].input = Input{false, std::move(body), document.where};
    }
    pending_.clear();
  }

  void read_word(Words& out) {
    WordBuilder word(out, in_.where());
    // `~` or `~/...` is the home directory to bash.
    if (in_.peek() == '~' &&
        std::string_view("/ \t\n").find(in_.peek_or_nul(1)) != std::string_view::npos) {
      in_.next();
      word.text() += variable("HOME", in_.where());
    }
    bool digits_only = true;
    while (!in_.done()) {
      const char c = in_.peek();
      if (is_blank(c) || c == '\n' || is_operator(c) || (c == '\r' && in_.newline_at(1))) break;
      digits_only = digits_only && std::isdigit(static_cast<unsigned char>(c));
      if (c == '\\') {
        read_backslash(word);
      } else if (c == '\'') {
        read_single(word.text());
        word.quoted();
      } else if (c == '"') {
        read_double(word.text(), in_.where());
        word.quoted();
      } else if (c == '$' || c == '`') {
        read_dollar(word);
      } else {
        word.add(in_.next());
      }
    }
    // `2>file`: the digits name a file descriptor, not an argument.
    const bool redirect = !in_.done() && (in_.peek() == '<' || in_.peek() == '>');
    if (!(redirect && digits_only)) word.finish();
  }

  void read_backslash(WordBuilder& word) {
    in_.next();
    if (in_.done()) {
      word.add('\\');
    } else if (in_.peek() == '\n' || (in_.peek() == '\r' && in_.newline_at(1))) {
      in_.skip_newline();
    } else {
      word.add(in_.next());
      word.quoted();
    }
  }

  void read_single(std::string& out) {
    const auto start = in_.where();
    in_.next();
    while (!in_.done() && in_.peek() != '\'') out += in_.next();
    if (in_.done()) throw ParseError(start, "unterminated single quote (')");
    in_.next();
  }

  /// `"..."`; `start` is where the quote began (at the `$` of `$"..."`).
  void read_double(std::string& out, Position start) {
    in_.next();
    read_expanding(out, true);
    if (in_.done()) throw ParseError(start, "unterminated double quote (\")");
    in_.next();
  }

  /// The inside of `"..."` (`quote`), or a here-document's body: `$NAME` expands whole.
  void read_expanding(std::string& out, bool quote) {
    const std::string_view escaped = quote ? "$`\"\\" : "$`\\";
    while (!in_.done() && !(quote && in_.peek() == '"')) {
      const char c = in_.peek();
      if (c == '\\' && in_.newline_at(1)) {
        in_.skip_continuation();
      } else if (c == '\\' && in_.size_left() > 1 &&
                 escaped.find(in_.peek(1)) != std::string_view::npos) {
        in_.next();
        out += in_.next();
      } else if (c == '$' || c == '`') {
        const auto value = read_parameter();
        out += value ? *value : std::string(1, in_.next());
      } else {
        out += in_.next();
      }
    }
  }

  void read_dollar(WordBuilder& word) {
    const auto start = in_.where();
    const char next = in_.peek_or_nul(1);
    if (in_.peek() == '$' && next == '\'') {
      in_.next();
      read_ansi_c(in_, word.text(), start);
      word.quoted();
    } else if (in_.peek() == '$' && next == '"') {
      in_.next();
      read_double(word.text(), start);
      word.quoted();
    } else if (const auto value = read_parameter()) {
      word.add_split(*value);
    } else {
      word.add(in_.next());
    }
  }

  /// At `$` or `` ` ``: the value of `$NAME` or `${NAME}` (read), nullopt for a `$` that is
  /// only a `$` (not read). Throws at any other expansion, naming it.
  std::optional<std::string> read_parameter() {
    const auto where = in_.where();
    const char next = in_.peek_or_nul(1);
    if (in_.peek() == '`') refuse(where, "command substitution `...`");
    if (next == '(') {
      refuse(where, in_.peek_or_nul(2) == '(' ? "arithmetic expansion $((...))"
                                              : "command substitution $(...)");
    }
    if (std::isdigit(static_cast<unsigned char>(next)) ||
        (next != '\0' && std::string_view("@*#?$!-").find(next) != std::string_view::npos)) {
      refuse(where, std::string("the special parameter $") + next);
    }
    if (next != '{' && !starts_name(next)) return std::nullopt;
    in_.next();
    const bool braced = in_.peek() == '{';
    if (braced) in_.next();
    std::string name;
    while (!in_.done() && in_name(in_.peek())) name += in_.next();
    if (braced && (in_.done() || in_.peek() != '}' || name.empty() || !starts_name(name[0]))) {
      refuse(where, "the parameter expansion ${" + name + (in_.done() ? "" : "...") + "}");
    }
    if (braced) in_.next();
    return variable(name, where);
  }

  std::string variable(const std::string& name, Position where) {
    if (auto value = environment_(name)) return std::move(*value);
    warnings_.push_back({where, "$" + name + " is not set; bash would give the empty string"});
    return {};
  }

  [[noreturn]] static void refuse(Position where, const std::string& construct) {
    throw ParseError(where, construct +
                                " is not supported (stampede expands only $NAME, ${NAME} and ~; "
                                "quote with '...' to send it as typed)");
  }

  TextCursor in_;
  const Environment& environment_;
  std::vector<Warning>& warnings_;
  std::vector<PendingDocument> pending_;
};

}  // namespace

Environment process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe): read only
    if (value == nullptr) return std::nullopt;
    return value;
  };
}

std::vector<ShellCommand> split_bash(std::string_view text, const Environment& environment,
                                     std::vector<Warning>& warnings) {
  return BashSplitter(text, environment, warnings).run();
}

Dialect detect_dialect(std::string_view text) {
  const bool caret_quote = text.find("^\"") != std::string_view::npos;
  const bool caret_line =
      text.find("^\n") != std::string_view::npos || text.find("^\r\n") != std::string_view::npos;
  const auto start = std::min(text.find_first_not_of(" \t\r\n"), text.size());
  const bool windows_curl = text.substr(start).starts_with("curl.exe ");
  return caret_quote || caret_line || windows_curl ? Dialect::cmd : Dialect::bash;
}

std::vector<ShellCommand> split_commands(std::string_view text, const Environment& environment,
                                         std::vector<Warning>& warnings) {
  return detect_dialect(text) == Dialect::cmd ? split_cmd(text)
                                              : split_bash(text, environment, warnings);
}

}  // namespace stampede::curl
