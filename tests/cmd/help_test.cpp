// --help and --output's usage error list the output formats from report/formats' table.
#include <gtest/gtest.h>

#include <string>

#include "cmd/options.hpp"
#include "report/formats.hpp"

namespace stampede::cmd {
namespace {

TEST(Help, OutputListsEveryFormatWithItsDescription) {
  const auto help = help_text();
  EXPECT_NE(help.find("\n  --output text|json|csv   the final report (default text):\n"),
            std::string::npos)
      << help;
  for (const auto& format : report::formats()) {
    const std::string line = std::string(29, ' ') + std::string(format.name);
    EXPECT_NE(help.find(line), std::string::npos) << format.name;
    EXPECT_NE(help.find(format.description), std::string::npos) << format.name;
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
