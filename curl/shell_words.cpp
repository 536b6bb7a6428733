// The bash dialect: words as bash splits them, with no expansion (a `$name` is refused).
#include "curl/shell_words.hpp"

#include <cctype>

#include "curl/text_cursor.hpp"

namespace stampede::curl {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_operator(char c) {
  return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')';
}
bool starts_name(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

/// Appends code point `cp` as UTF-8, as bash does for `\u` and `\U`.
void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | ((cp >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class BashSplitter {
 public:
  explicit BashSplitter(std::string_view text) : in_(text) {}

  std::vector<Words> run() {
    std::vector<Words> commands(1);
    while (!in_.done()) {
      const char c = in_.peek();
      if (is_blank(c) || c == '\r') {
        in_.next();
      } else if (c == '\\' && in_.newline_at(1)) {
        in_.skip_continuation();
      } else if (c == '\n' || c == ';' || c == '&' || c == '|') {
        in_.next();
        if (!commands.back().empty()) commands.emplace_back();
      } else if (c == '#') {
        while (!in_.done() && in_.peek() != '\n') in_.next();
      } else if (c == '<' || c == '>') {
        skip_redirection();
      } else if (c == '(' || c == ')') {
        throw ParseError(in_.where(), std::string("unsupported shell syntax '") + c + "'");
      } else {
        read_word(commands.back());
      }
    }
    if (commands.back().empty()) commands.pop_back();
    return commands;
  }

 private:
  /// `> file`, `2>&1`, `< file`: only where curl's output goes, so the target word is dropped.
  void skip_redirection() {
    while (!in_.done() && (in_.peek() == '<' || in_.peek() == '>' || in_.peek() == '&')) in_.next();
    while (!in_.done() && is_blank(in_.peek())) in_.next();
    Words dropped;
    if (!in_.done() && in_.peek() != '\n') read_word(dropped);
  }

  void read_word(Words& command) {
    Word word{{}, in_.where()};
    // `~` or `~/...` is the user's home directory to bash: an expansion, refused like `$HOME`.
    if (in_.peek() == '~' &&
        std::string_view("/ \t\n").find(in_.peek_or_nul(1)) != std::string_view::npos) {
      refuse_expansion();
    }
    bool digits_only = true;
    while (!in_.done()) {
      const char c = in_.peek();
      if (is_blank(c) || c == '\n' || is_operator(c) || (c == '\r' && in_.newline_at(1))) break;
      digits_only = digits_only && std::isdigit(static_cast<unsigned char>(c));
      if (c == '\\') {
        read_backslash(word.text);
      } else if (c == '\'') {
        read_single(word.text);
      } else if (c == '"') {
        read_double(word.text, in_.where());
      } else if (c == '$' || c == '`') {
        read_dollar(word.text);
      } else {
        word.text += in_.next();
      }
    }
    // `2>file`: the digits name a file descriptor, not an argument.
    const bool redirect = !in_.done() && (in_.peek() == '<' || in_.peek() == '>');
    if (!(redirect && digits_only)) command.push_back(std::move(word));
  }

  void read_backslash(std::string& out) {
    in_.next();
    if (in_.done()) {
      out += '\\';
    } else if (in_.peek() == '\n' || (in_.peek() == '\r' && in_.newline_at(1))) {
      in_.skip_newline();
    } else {
      out += in_.next();
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
    while (!in_.done() && in_.peek() != '"') {
      const char c = in_.peek();
      if (c == '\\' && in_.newline_at(1)) {
        in_.skip_continuation();
      } else if (c == '\\' && in_.size_left() > 1 &&
                 std::string_view("$`\"\\").find(in_.peek(1)) != std::string_view::npos) {
        in_.next();
        out += in_.next();
      } else if (c == '`' || (c == '$' && expands(in_.peek_or_nul(1)))) {
        refuse_expansion();
      } else {
        out += in_.next();
      }
    }
    if (in_.done()) throw ParseError(start, "unterminated double quote (\")");
    in_.next();
  }

  /// `$name`, `${...}`, `$(...)`, `$1`, `$?`...: what bash would replace before curl sees it.
  static bool expands(char c) {
    return c != '\0' && (starts_name(c) || std::isdigit(static_cast<unsigned char>(c)) ||
                         std::string_view("{(@*#?$!-").find(c) != std::string_view::npos);
  }

  [[noreturn]] void refuse_expansion() {
    throw ParseError(
        in_.where(),
        "shell expansion is not supported (quote it with '...' so it is sent as typed)");
  }

  void read_dollar(std::string& out) {
    const char next = in_.peek_or_nul(1);
    if (in_.peek() == '`' || expands(next)) refuse_expansion();
    const auto start = in_.where();
    if (next == '\'') {
      in_.next();
      read_ansi_c(out, start);
    } else if (next == '"') {
      in_.next();
      read_double(out, start);
    } else {
      out += in_.next();
    }
  }

  /// `$'...'`: C escapes. A `\0` ends the string there, as bash's arguments are C strings.
  void read_ansi_c(std::string& out, Position start) {
    in_.next();
    bool truncated = false;
    while (!in_.done() && in_.peek() != '\'') {
      std::string piece;
      if (in_.peek() == '\\' && in_.size_left() > 1) {
        in_.next();
        ansi_escape(piece);
      } else {
        piece += in_.next();
      }
      if (piece.find('\0') != std::string::npos) truncated = true;
      if (!truncated) out += piece;
    }
    if (in_.done()) throw ParseError(start, "unterminated $'...' quote");
    in_.next();
  }

  unsigned long read_number(int base, int max_digits, unsigned long value = 0) {
    for (int i = 0; i < max_digits && !in_.done(); ++i) {
      const char c = in_.peek();
      const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                        : std::isxdigit(static_cast<unsigned char>(c))
                            ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                            : 99;
      if (digit >= base) break;
      value = value * static_cast<unsigned long>(base) + static_cast<unsigned long>(digit);
      in_.next();
    }
    return value;
  }

  void ansi_escape(std::string& out) {
    const char c = in_.next();
    const std::string_view simple = "abefnrtv\\'\"?E";
    const std::string_view meaning = "\a\b\x1b\f\n\r\t\v\\'\"?\x1b";
    if (const auto at = simple.find(c); at != std::string_view::npos) {
      out += meaning[at];
    } else if (c >= '0' && c <= '7') {
      out += static_cast<char>(read_number(8, 2, static_cast<unsigned long>(c - '0')) & 0xFF);
    } else if (c == 'x' && std::isxdigit(static_cast<unsigned char>(in_.peek_or_nul(0)))) {
      out += static_cast<char>(read_number(16, 2));
    } else if ((c == 'u' || c == 'U') &&
               std::isxdigit(static_cast<unsigned char>(in_.peek_or_nul(0)))) {
      append_utf8(out, read_number(16, c == 'u' ? 4 : 8));
    } else if (c == 'c' && !in_.done() && in_.peek() != '\'') {
      out += static_cast<char>(in_.next() & 0x1F);
    } else {
      out += '\\';
      out += c;
    }
  }

  TextCursor in_;
};

}  // namespace

std::vector<Words> split_bash(std::string_view text) { return BashSplitter(text).run(); }

Dialect detect_dialect(std::string_view text) {
  const bool caret_quote = text.find("^\"") != std::string_view::npos;
  const bool caret_line =
      text.find("^\n") != std::string_view::npos || text.find("^\r\n") != std::string_view::npos;
  const auto start = std::min(text.find_first_not_of(" \t\r\n"), text.size());
  const bool windows_curl = text.substr(start).starts_with("curl.exe ");
  return caret_quote || caret_line || windows_curl ? Dialect::cmd : Dialect::bash;
}

std::vector<Words> split_commands(std::string_view text) {
  return detect_dialect(text) == Dialect::cmd ? split_cmd(text) : split_bash(text);
}

}  // namespace stampede::curl
