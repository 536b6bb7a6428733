// Shell words: the text of a curl file split into commands of words, as bash or cmd.exe would.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "curl/parse_error.hpp"

namespace stampede::curl {

/// One argument after the shell's quoting is undone, and where it starts in the file.
struct Word {
  std::string text;
  Position where;
};

/// The words of one shell command, the program's name first.
using Words = std::vector<Word>;

/// The two shells that "Copy as cURL" writes for.
enum class Dialect : unsigned char { bash, cmd };

/// cmd when the text uses cmd.exe's caret escapes (`^"` or a `^` line end) or starts with
/// `curl.exe`, bash otherwise.
Dialect detect_dialect(std::string_view text);

/// Splits bash text: single, double and `$'...'` quotes, backslashes, line continuations,
/// comments; `;`, `&&`, `||`, `|`, `&` and new lines end a command; redirections are dropped.
/// Throws ParseError (no file name) at an unterminated quote or a shell expansion.
std::vector<Words> split_bash(std::string_view text);

/// Splits cmd.exe text: `^` escapes and line ends, then the C runtime's rules for `"` and `\`.
std::vector<Words> split_cmd(std::string_view text);

/// Splits with the dialect detect_dialect() picks.
std::vector<Words> split_commands(std::string_view text);

}  // namespace stampede::curl
