// Entry point tests: flows in order, non-curl commands, warnings with places, files and errors.
#include "curl/parse.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace stampede::curl {
namespace {

TEST(Parse, EveryCommandAndUrlIsAStepInOrder) {
  const auto cmd = parse_text("curl.exe ^\"http://h/c^\" ^\n  -H ^\"A: 1^\"\r\ncurl http://h/d",
                              "flow.cmd.txt", ".");
  ASSERT_EQ(cmd.steps.size(), 2U);
  EXPECT_EQ(cmd.steps[0].target, "/c");
  EXPECT_EQ(cmd.steps[0].headers.at(0).second, "1");
  const auto bash = parse_text("curl -d u=1 http://h/login\ncurl http://h/a http://h/b; echo x\n",
                               "flow.txt", ".");
  ASSERT_EQ(bash.steps.size(), 3U);
  EXPECT_EQ(bash.steps[0].target, "/login");
  EXPECT_EQ(bash.steps[0].method, "POST");
  EXPECT_EQ(bash.steps[2].target, "/b");
  ASSERT_EQ(bash.warnings.size(), 1U);
  EXPECT_EQ(bash.warnings[0], "flow.txt:2:29: 'echo' is not a curl command; skipped");
}

TEST(Parse, NextStartsANewRequestAndAByteOrderMarkIsSkipped) {
  const auto parsed = parse_text(
      "\xEF\xBB\xBF"
      "curl -d a=1 http://h/one --next -H 'X: 1' http://h/two -: h/3",
      "next.txt", ".");
  ASSERT_EQ(parsed.steps.size(), 3U);
  EXPECT_EQ(parsed.steps[0].method, "POST");
  EXPECT_EQ(parsed.steps[1].method, "GET");  // options before --next do not carry over
  EXPECT_EQ(parsed.steps[1].headers.at(0).first, "X");
  EXPECT_EQ(parsed.steps[2].target, "/3");
  EXPECT_TRUE(parsed.warnings.empty());
}

TEST(Parse, WarningsNameFileLineAndColumn) {
  const auto parsed = parse_text("curl \\\n  --proxy p http://h/", "w.txt", ".");
  ASSERT_EQ(parsed.warnings.size(), 1U);
  EXPECT_EQ(parsed.warnings[0],
            "w.txt:2:3: curl option --proxy is not applied by stampede (ignored)");
}

TEST(Parse, FilesFindTheirDataNextToThem) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "stampede_curl_parse";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "body.json") << R"({"a":1})";
  std::ofstream(dir / "req.curl.txt") << "curl --data-binary @body.json http://h/\n";
  const auto parsed = parse_file((dir / "req.curl.txt").string());
  EXPECT_EQ(parsed.steps.at(0).body, R"({"a":1})");
}

TEST(Parse, NamesEveryFileItsCommandsRead) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "stampede_curl_files";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "body.json") << "{}";
  std::ofstream(dir / "cookies.txt") << "h\tFALSE\t/\tFALSE\t0\tsid\t1\n";
  std::ofstream(dir / "headers.txt") << "X-A: 1\n";
  std::ofstream(dir / "in.txt") << "b=2";
  const auto parsed = parse_text(
      "curl -d @body.json -b cookies.txt -H @headers.txt -z since.html http://h/\n"
      "curl --data-binary @- http://h/ < in.txt\n",
      "f.txt", dir);
  const std::vector<std::filesystem::path> named{dir / "body.json", dir / "headers.txt",
                                                 dir / "cookies.txt", dir / "since.html",
                                                 dir / "in.txt"};
  EXPECT_EQ(std::set(parsed.files.begin(), parsed.files.end()),
            std::set(named.begin(), named.end()));
}

TEST(Parse, CapturesReadTheLastRequestOfTheCommandAfterThem) {
  const auto parsed = parse_text(
      "# stampede: capture token = json /token\n"
      "# stampede: capture id = header Location /o/(\\d+)\n"
      "curl -d u=1 http://h/login http://h/whoami\n"
      "curl http://h/next\n",
      "flow.txt", ".");
  ASSERT_EQ(parsed.steps.size(), 3U);
  EXPECT_TRUE(parsed.steps[0].captures.empty());
  ASSERT_EQ(parsed.steps[1].captures.size(), 2U);
  EXPECT_EQ(parsed.steps[1].captures[0],
            (model::Capture{"token", model::CaptureSource::json, "/token", ""}));
  EXPECT_EQ(parsed.steps[1].captures[1].pattern, "/o/(\\d+)");
  EXPECT_TRUE(parsed.steps[2].captures.empty());
}

TEST(Parse, BadDirectivesAreErrorsAtTheirPlace) {
  const auto error = [](std::string_view text) {
    try {
      (void)parse_text(text, "d.txt", ".");
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("# stampede: keep t = json /t\ncurl http://h/"),
            "d.txt:1:12: unknown '# stampede:' line (known: '# stampede: capture NAME = json "
            "/pointer | header Name [REGEX] | body REGEX')");
  EXPECT_EQ(error("curl http://h/\n# stampede: capturex = json /t\ncurl http://h/"),
            "d.txt:2:12: unknown '# stampede:' line (known: '# stampede: capture NAME = json "
            "/pointer | header Name [REGEX] | body REGEX')");
  EXPECT_EQ(error("# stampede: capture t = json t\ncurl http://h/").substr(0, 48),
            "d.txt:1:12: capture: 't' is not a JSON Pointer (");
  EXPECT_EQ(error("# stampede: capture t = json /t\necho hi\ncurl http://h/"),
            "d.txt:1:12: a '# stampede:' line must come before a curl command, not 'echo'");
}

TEST(Parse, ErrorsNameTheFile) {
  try {
    (void)parse_text("echo nothing to send\n", "empty.txt", ".");
    FAIL() << "no error";
  } catch (const ParseError& error) {
    EXPECT_STREQ(error.what(), "empty.txt:1:1: no curl command found");
    EXPECT_EQ(error.file(), "empty.txt");
  }
  try {
    (void)parse_file("/nonexistent/req.curl.txt");
    FAIL() << "no error";
  } catch (const ParseError& error) {
    EXPECT_STREQ(error.what(),
                 "/nonexistent/req.curl.txt:1:1: cannot read this curl file (check "
                 "the path after -p)");
  }
}

}  // namespace
}  // namespace stampede::curl
