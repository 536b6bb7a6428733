// Writes the flag reference (Markdown for docs/flags.md and the README, roff for the man page)
// from the same tables the parsers read, so that none of them can miss a flag.
#include "cmd/reference.hpp"

#include <cctype>

#include "cmd/flag_doc.hpp"
#include "model/version.hpp"

namespace stampede::cmd {
namespace {

/// "stampede serve", or "stampede" for the load run.
std::string command_name(const CommandDoc& command) {
  return command.name.empty() ? "stampede" : "stampede " + std::string(command.name);
}

/// `text` safe in a Markdown table cell.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += "<br>";
    } else {
      out += c;
    }
  }
  return out;
}

/// "`-c, --concurrency N`".
std::string spelled_with_value(const FlagDoc& flag) {
  return "`" + cell(flag.names) + (flag.value.empty() ? "" : " " + cell(flag.value)) + "`";
}

/// `text` safe in roff: backslashes and hyphens escaped, no line taken as a request, a line
/// break kept as one (not as a blank line).
std::string roff(std::string_view text) {
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  std::string out;
  for (const char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (c == '\n') {
      out += "\n.br\n";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

/// An anchor GitHub makes for a heading of `text`.
std::string anchor(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (c == ' ' || c == '-' || c == '_') {
      out += c == ' ' ? '-' : c;
    }
  }
  return out;
}

}  // namespace

std::string flags_markdown() {
  std::string text =
      "# Flags\n\nEvery flag of every command, written by `stampede help --markdown` from the "
      "tables the parsers read (`bash scripts/reference.sh` rewrites this file and the README's "
      "index; a test fails when they are stale). `stampede help FLAG` says the same for one "
      "flag. Back to the [README](../README.md).\n";
  for (const auto& command : command_docs()) {
    text += "\n## " + command_name(command) + "\n\n`" + std::string(command.synopsis) +
            "`: " + std::string(command.summary) + "\n";
    for (const auto& section : command.sections) {
      text += "\n### " + std::string(section.title) +
              (command.name.empty() ? "" : " (" + command_name(command) + ")") + "\n\n";
      if (!section.intro.empty()) text += std::string(section.intro) + "\n\n";
      text += "| flag | what it does | default |\n| --- | --- | --- |\n";
      for (const auto& flag : command.flags) {
        if (flag.section != section.title) continue;
        std::string help(flag.help);
        if (flag.choices != nullptr) help += "\n" + flag.choices();
        while (!help.empty() && help.back() == '\n') help.pop_back();
        if (!flag.rule.empty()) help += "\n" + std::string(flag.rule);
        text += "| " + spelled_with_value(flag) + " | " + cell(help) + " | " + cell(flag.fallback) +
                " |\n";
      }
    }
    if (!command.epilogue.empty()) text += "\n```\n" + std::string(command.epilogue) + "```\n";
  }
  return text;
}

std::string readme_flags() {
  std::string text = "| command: section | flags |\n| --- | --- |\n";
  for (const auto& command : command_docs()) {
    for (const auto& section : command.sections) {
      std::string names;
      for (const auto& flag : command.flags) {
        if (flag.section == section.title)
          names += (names.empty() ? "" : " ") + spelled_with_value(flag);
      }
      const auto heading = std::string(section.title) +
                           (command.name.empty() ? "" : " (" + command_name(command) + ")");
      text += "| [" + command_name(command) + ": " + std::string(section.title) +
              "](docs/flags.md#" + anchor(heading) + ") | " + names + " |\n";
    }
  }
  return text;
}

std::string man_page() {
  std::string text = ".TH STAMPEDE 1 \"\" \"stampede " + std::string(model::version) +
                     "\" \"User Commands\"\n.SH NAME\nstampede \\- HTTP, WebSocket and gRPC "
                     "load generator\n.SH SYNOPSIS\n";
  for (const auto& command : command_docs()) text += ".B " + roff(command.synopsis) + "\n.br\n";
  for (const auto& command : command_docs()) {
    text += ".SH " + roff(command_name(command)) + "\n" + roff(command.summary) + "\n";
    for (const auto& section : command.sections) {
      text += ".SS " + roff(section.title) + "\n";
      if (!section.intro.empty()) text += roff(section.intro) + "\n";
      for (const auto& flag : command.flags) {
        if (flag.section != section.title) continue;
        text += ".TP\n.B " + roff(flag.names) + (flag.value.empty() ? "" : " " + roff(flag.value)) +
                "\n" + roff(flag.help) + "\n";
        if (flag.choices != nullptr) text += ".br\n" + roff(flag.choices()) + "\n";
        if (!flag.rule.empty()) text += ".br\n" + roff(flag.rule) + "\n";
        if (!flag.fallback.empty()) text += ".br\nDefault: " + roff(flag.fallback) + "\n";
      }
    }
    if (!command.epilogue.empty()) text += ".PP\n.nf\n" + roff(command.epilogue) + "\n.fi\n";
  }
  return text + ".SH SEE ALSO\nThe guides in the source's docs/ folder; README.md.\n";
}

}  // namespace stampede::cmd
