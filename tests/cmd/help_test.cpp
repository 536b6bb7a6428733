// The flag tables: every flag has its help, --help, `help FLAG` and the man page list each one,
// and the choices of -v and --output come from their own tables.
#include "cmd/help.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cmd/flag_doc.hpp"
#include "cmd/options.hpp"
#include "cmd/reference.hpp"
#include "report/formats.hpp"
#include "verify/verifier.hpp"

namespace stampede::cmd {
namespace {

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(Help, EveryFlagHasItsHelpAndASectionOfItsCommand) {
  for (const auto& command : command_docs()) {
    std::set<std::string> names;
    for (const auto& flag : command.flags) {
      EXPECT_FALSE(flag.help.empty()) << flag.names;
      EXPECT_TRUE(names.insert(long_name(flag.names)).second) << flag.names << " twice";
      bool listed = false;
      for (const auto& section : command.sections) listed = listed || section.title == flag.section;
      EXPECT_TRUE(listed) << flag.names << ": no section " << flag.section;
    }
    EXPECT_FALSE(command.summary.empty()) << command.name;
  }
}

TEST(Help, EachCommandsHelpAndTheManPageListEveryFlag) {
  const auto man = man_page();
  const auto markdown = flags_markdown();
  for (const auto& command : command_docs()) {
    const auto help = command_help(command);
    for (const auto& flag : command.flags) {
      EXPECT_TRUE(has(help, "\n  " + std::string(flag.names))) << command.name << " " << flag.names;
      EXPECT_TRUE(has(markdown, "`" + std::string(flag.names))) << flag.names;
      std::string roff_names;
      for (const char c : flag.names) roff_names += c == '-' ? "\\-" : std::string(1, c);
      EXPECT_TRUE(has(man, ".B " + roff_names)) << flag.names;
    }
  }
}

TEST(Help, AFlagsHelpNamesItsCommandRangeAndDefault) {
  const auto c = flag_help("-c");
  EXPECT_TRUE(has(c, "-c, --concurrency N")) << c;
  EXPECT_TRUE(has(c, "(default: 1)")) << c;
  EXPECT_TRUE(has(c, "Takes: -c must be a whole number from 1 to 10000000")) << c;
  EXPECT_EQ(flag_help("concurrency"), c);
  // --output is a flag of four commands: each says so.
  const auto output = flag_help("--output");
  for (const char* where :
       {"stampede,", "stampede report,", "stampede compare,", "stampede shards,"}) {
    EXPECT_TRUE(has(output, where)) << where << "\n" << output;
  }
  EXPECT_EQ(flag_help("--no-such-flag"), "");
}

/// `text` with each run of blanks and line breaks as one blank, as wrapping does not matter.
std::string flat(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\n';
    if (!blank || (!out.empty() && out.back() != ' ')) out += blank ? ' ' : c;
  }
  return out;
}

TEST(Help, ListsEveryVerifierAndFormatOfTheirTables) {
  const auto help = flat(command_help(*find_command("")));
  for (const auto& kind : verify::verifier_kinds()) {
    const auto alias = kind.alias.empty() ? "" : " (or " + std::string(kind.alias) + ")";
    EXPECT_TRUE(has(help, std::string(kind.name) + alias + ": ")) << kind.name;
    EXPECT_TRUE(has(help, std::string(kind.code_range))) << kind.name;
  }
  for (const auto& format : report::formats()) {
    EXPECT_TRUE(has(help, std::string(format.name) + ": ")) << format.name;
  }
}

TEST(Help, UnknownOutputNamesTheFormats) {
  const char* args[] = {"--output", "xml", "-u", "http://127.0.0.1/"};
  try {
    parse_options(args);
    FAIL() << "--output xml was accepted";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              "unknown output 'xml' (use --output text, --output json or --output csv)");
  }
}

}  // namespace
}  // namespace stampede::cmd
