// parse_file(): split into commands, read each curl command, build its requests, locate errors.
#include "curl/parse.hpp"

#include <fstream>
#include <sstream>

#include "curl/command.hpp"
#include "curl/shell_words.hpp"
#include "curl/to_request.hpp"

namespace stampede::curl {

namespace {

bool is_curl(const std::string& program) {
  const auto name = std::filesystem::path(program).filename().string();
  return name == "curl" || name == "curl.exe";
}

std::string located(const std::string& name, const Warning& warning) {
  return name + ":" + std::to_string(warning.where.line) + ":" +
         std::to_string(warning.where.column) + ": " + warning.text;
}

/// curl's `--next` (`-:`) starts a new request with options of its own: one command each.
std::vector<Words> split_at_next(const Words& words) {
  std::vector<Words> commands{{words.front()}};
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (words[i].text == "--next" || words[i].text == "-:") {
      commands.push_back({{words.front().text, words[i].where}});
    } else {
      commands.back().push_back(words[i]);
    }
  }
  return commands;
}

void add_command(const Words& words, const std::filesystem::path& base, Parsed& parsed,
                 std::vector<Warning>& warnings) {
  if (!is_curl(words.front().text)) {
    warnings.push_back(
        {words.front().where, "'" + words.front().text + "' is not a curl command; skipped"});
    return;
  }
  for (const auto& part : split_at_next(words)) {
    auto command = read_command(part);
    warnings.insert(warnings.end(), command.warnings.begin(), command.warnings.end());
    for (auto& request : to_requests(command, base, warnings)) {
      parsed.steps.push_back(std::move(request));
    }
  }
}

}  // namespace

Parsed parse_text(std::string_view text, const std::string& name,
                  const std::filesystem::path& base) {
  Parsed parsed;
  std::vector<Warning> warnings;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 mark from Windows editors
  try {
    for (const auto& words : split_commands(text)) add_command(words, base, parsed, warnings);
  } catch (const ParseError& error) {
    throw ParseError(error.where(), error.message(), name);
  }
  if (parsed.steps.empty()) throw ParseError({1, 1}, "no curl command found", name);
  for (const auto& warning : warnings) parsed.warnings.push_back(located(name, warning));
  return parsed;
}

Parsed parse_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::error_code error;
  if (std::filesystem::is_directory(path, error) || !file) {
    throw ParseError({1, 1}, "cannot read this curl file (check the path after -p)", path);
  }
  std::ostringstream text;
  text << file.rdbuf();
  return parse_text(text.str(), path, std::filesystem::path(path).parent_path());
}

}  // namespace stampede::curl
