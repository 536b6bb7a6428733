// parse_file(): split into commands, read each curl command, build its requests, locate errors.
#include "curl/parse.hpp"

#include <fstream>
#include <sstream>

#include "curl/capture_spec.hpp"
#include "curl/command.hpp"
#include "curl/files.hpp"
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

/// `# stampede: capture NAME = ...` lines: what the command's last request captures.
std::vector<model::Capture> read_directives(const std::vector<Word>& directives) {
  std::vector<model::Capture> captures;
  for (const auto& directive : directives) {
    std::string_view text = directive.text;
    const auto start = text.find_first_not_of(" \t");
    text.remove_prefix(std::min(start, text.size()));
    constexpr std::string_view capture = "capture";
    if (!text.starts_with(capture) ||
        (text.size() > capture.size() && text[capture.size()] != ' ' &&
         text[capture.size()] != '\t')) {
      throw ParseError(directive.where,
                       "unknown '# stampede:' line (known: '# stampede: capture "
                       "NAME = json /pointer | header Name [REGEX] | body REGEX')");
    }
    try {
      captures.push_back(parse_capture(text.substr(capture.size())));
    } catch (const CaptureError& error) {
      throw ParseError(directive.where, std::string("capture: ") + error.what());
    }
  }
  return captures;
}

void add_command(const ShellCommand& shell, const Files& files, Parsed& parsed,
                 std::vector<Warning>& warnings) {
  const auto& words = shell.words;
  auto captures = read_directives(shell.directives);
  if (!is_curl(words.front().text)) {
    if (!captures.empty()) {
      throw ParseError(
          shell.directives.front().where,
          "a '# stampede:' line must come before a curl command, not '" + words.front().text + "'");
    }
    warnings.push_back(
        {words.front().where, "'" + words.front().text + "' is not a curl command; skipped"});
    return;
  }
  for (const auto& command : read_commands(words)) {
    warnings.insert(warnings.end(), command.warnings.begin(), command.warnings.end());
    for (auto& request : to_requests(command, files, warnings)) {
      parsed.steps.push_back(std::move(request));
    }
  }
  // The captures read the response of the command's last request, the one a later step follows.
  if (!captures.empty() && !parsed.steps.empty())
    parsed.steps.back().captures = std::move(captures);
}

}  // namespace

Parsed parse_text(std::string_view text, const std::string& name, const std::filesystem::path& base,
                  const Environment& environment) {
  Parsed parsed;
  std::vector<Warning> warnings;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 mark from Windows editors
  try {
    for (const auto& command : split_commands(text, environment, warnings)) {
      const Files files(base, command.input);
      add_command(command, files, parsed, warnings);
      parsed.files.insert(parsed.files.end(), files.named().begin(), files.named().end());
    }
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
  return parse_text(text.str(), path, std::filesystem::path(path).parent_path(),
                    process_environment());
}

}  // namespace stampede::curl
