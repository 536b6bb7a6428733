// The cmd.exe dialect: cmd's caret escapes first, then the C runtime splits the words.
#include <utility>

#include "curl/shell_words.hpp"
#include "curl/text_cursor.hpp"

namespace stampede::curl {

namespace {

/// One byte as cmd.exe hands it to the program, and where it was in the file.
struct Placed {
  char c;
  Position where;
};
using Line = std::vector<Placed>;

/// cmd.exe's pass: `^x` is x, `^` + line end joins lines (and escapes the next byte), a new line
/// outside an escape ends the command; `"` switches carets off until the next `"`. `&` and `|`
/// separate commands; `>` and `<` redirect curl's output, so the rest of the line is dropped.
std::vector<Line> cmd_pass(std::string_view text) {
  TextCursor in(text);
  std::vector<Line> lines(1);
  bool quoted = false;
  while (!in.done()) {
    const auto where = in.where();
    const char c = in.peek();
    if (c == '^' && !quoted) {
      in.next();
      if (in.newline_at(0)) in.skip_newline();
      if (in.newline_at(0)) {  // the byte after a joined line is escaped: a new line in a word
        in.skip_newline();
        lines.back().push_back({'\n', where});
      } else if (!in.done()) {
        lines.back().push_back({in.next(), where});
      }
    } else if (in.newline_at(0)) {
      in.skip_newline();
      quoted = false;
      lines.emplace_back();
    } else if (!quoted && (c == '&' || c == '|')) {
      in.next();
      lines.emplace_back();
    } else if (!quoted && (c == '>' || c == '<')) {
      while (!in.done() && !in.newline_at(0)) in.next();
    } else {
      quoted = quoted != (c == '"');
      lines.back().push_back({in.next(), where});
    }
  }
  return lines;
}

bool is_cmd_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// The C runtime's rules: blanks split words outside quotes; `"` toggles quoting, `""` inside
/// quotes is one `"`; 2n backslashes before `"` are n and the quote counts, 2n+1 are n and a `"`.
Words crt_split(const Line& line) {
  Words words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_cmd_blank(line[i].c)) ++i;
    if (i == line.size()) break;
    Word word{{}, line[i].where};
    bool quoted = false;
    Position quote_start{};
    while (i < line.size() && (quoted || !is_cmd_blank(line[i].c))) {
      std::size_t slashes = 0;
      while (i < line.size() && line[i].c == '\\') ++slashes, ++i;
      const bool quote_next = i < line.size() && line[i].c == '"';
      word.text.append(quote_next ? slashes / 2 : slashes, '\\');
      if (!quote_next) {
        if (slashes == 0) word.text += line[i++].c;
        continue;
      }
      if (slashes % 2 == 1) {
        word.text += '"';
      } else if (quoted && i + 1 < line.size() && line[i + 1].c == '"') {
        word.text += '"';
        ++i;
      } else {
        quoted = !quoted;
        quote_start = line[i].where;
      }
      ++i;
    }
    if (quoted) throw ParseError(quote_start, "unterminated double quote (\")");
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace

std::vector<ShellCommand> split_cmd(std::string_view text) {
  std::vector<ShellCommand> commands;
  for (const auto& line : cmd_pass(text)) {
    auto words = crt_split(line);
    if (!words.empty()) commands.push_back({std::move(words), std::nullopt, {}});
  }
  return commands;
}

}  // namespace stampede::curl
