// Shell words: the text of a curl file split into commands of words, as bash or cmd.exe would.
#pragma once

#include <functional>
#include <optional>
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

/// What a command reads as its standard input (curl's `@-`, `-T -`): a here-string's or a
/// here-document's text, or the file a `< name` redirection names.
struct Input {
  bool from_file = false;  ///< `text` names a file (`< name`) rather than being the input
  std::string text;
  Position where;
};

/// One shell command: its words, where its standard input comes from, if anywhere, and the
/// `# stampede:` comment lines before it (or at its end), each the text after `stampede:`.
struct ShellCommand {
  Words words;
  std::optional<Input> input;
  std::vector<Word> directives;
};

/// `$NAME`'s value, or nullopt when NAME is not set.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;

/// This process's environment.
Environment process_environment();

/// The two shells that "Copy as cURL" writes for.
enum class Dialect : unsigned char { bash, cmd };

/// cmd when the text uses cmd.exe's caret escapes (`^"` or a `^` line end) or starts with
/// `curl.exe`, bash otherwise.
Dialect detect_dialect(std::string_view text);

/// Splits bash text: single, double and `$'...'` quotes, backslashes, line continuations,
/// comments (a `# stampede:` one is kept as a directive of the command after it); `;`, `&&`, `||`,
/// `|`, `&` and new lines end a command. `$NAME`, `${NAME}` and `~` expand from `environment` (an
/// unset name is empty, with a warning); here-strings (`<<<`), here-documents (`<<`, `<<-`) and `<
/// file` give the command its input; output redirections are dropped. Throws ParseError (no file
/// name) at an unterminated quote or at any other expansion (`$(...)`, `${NAME:-...}`, `$1`...),
/// naming it, and at a directive no command follows.
std::vector<ShellCommand> split_bash(std::string_view text, const Environment& environment,
                                     std::vector<Warning>& warnings);

/// Splits cmd.exe text: `^` escapes and line ends, then the C runtime's rules for `"` and `\`.
std::vector<ShellCommand> split_cmd(std::string_view text);

/// Splits with the dialect detect_dialect() picks.
std::vector<ShellCommand> split_commands(std::string_view text, const Environment& environment,
                                         std::vector<Warning>& warnings);

}  // namespace stampede::curl
