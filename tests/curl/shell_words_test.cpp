// Shell word tests: bash's and cmd.exe's quoting, continuations, comments, and located errors.
#include "curl/shell_words.hpp"

#include <gtest/gtest.h>

#include "tests/curl/error_text.hpp"

namespace stampede::curl {
namespace {

std::vector<std::string> word_texts(const ShellCommand& command) {
  std::vector<std::string> out;
  for (const auto& word : command.words) out.push_back(word.text);
  return out;
}

/// An environment with HOME, A ("1 2") and EMPTY (""), and what the splitter warned about.
std::optional<std::string> test_environment(const std::string& name) {
  if (name == "HOME") return "/home/u";
  if (name == "A") return "1 2";
  if (name == "EMPTY") return "";
  return std::nullopt;
}
std::vector<Warning> warnings;

std::vector<ShellCommand> split(std::string_view text) {
  warnings.clear();
  return split_bash(text, test_environment, warnings);
}

std::vector<std::string> bash(std::string_view text) {
  const auto commands = split(text);
  EXPECT_EQ(commands.size(), 1U) << text;
  return commands.empty() ? std::vector<std::string>{} : word_texts(commands.front());
}

std::vector<std::string> cmd(std::string_view text) {
  const auto commands = split_cmd(text);
  EXPECT_EQ(commands.size(), 1U) << text;
  return commands.empty() ? std::vector<std::string>{} : word_texts(commands.front());
}

std::string words_error(std::string_view text, bool windows = false) {
  return error_text([&] { (void)(windows ? split_cmd(text) : split(text)); });
}

using V = std::vector<std::string>;

TEST(SplitBash, QuotesBackslashesAndContinuations) {
  EXPECT_EQ(bash("curl 'a b' \"c d\" e\\ f"), (V{"curl", "a b", "c d", "e f"}));
  EXPECT_EQ(bash("curl 'it'\\''s' \"say \\\"hi\\\" \\$x \\\\ \\n\""),
            (V{"curl", "it's", "say \"hi\" $x \\ \\n"}));
  EXPECT_EQ(bash("curl a \\\n  b \\\r\n  c\"d\\\ne\""), (V{"curl", "a", "b", "cde"}));
  EXPECT_EQ(bash("curl 'x\ny' $ a$ \"$ 5\""), (V{"curl", "x\ny", "$", "a$", "$ 5"}));
  EXPECT_EQ(bash("curl $\"locale\" ''"), (V{"curl", "locale", ""}));
}

TEST(SplitBash, AnsiCQuotes) {
  EXPECT_EQ(bash(R"(curl $'a\'b\n\t\\\x41\101\u00e9\U0001F600\cA\q')"),
            (V{"curl", "a'b\n\t\\AA\xc3\xa9\xf0\x9f\x98\x80\x01\\q"}));
  EXPECT_EQ(bash(R"(curl $'ab\0cd'ef)"), (V{"curl", "abef"}));  // arguments are C strings
  EXPECT_EQ(bash(R"(curl $'\u0021\e\E\a\b\f\v\r\?\"')"), (V{"curl", "!\x1b\x1b\a\b\f\v\r?\""}));
}

TEST(SplitBash, CommentsOperatorsAndRedirections) {
  const auto commands = split(
      "# a flow\ncurl a # note\n\ncurl b; curl c && curl d | jq . > out 2>&1\ncurl "
      "e#not-a-comment");
  ASSERT_EQ(commands.size(), 6U);
  EXPECT_EQ(word_texts(commands[0]), (V{"curl", "a"}));
  EXPECT_EQ(word_texts(commands[1]), (V{"curl", "b"}));
  EXPECT_EQ(word_texts(commands[3]), (V{"curl", "d"}));
  EXPECT_EQ(word_texts(commands[4]), (V{"jq", "."}));
  EXPECT_EQ(word_texts(commands[5]), (V{"curl", "e#not-a-comment"}));
  EXPECT_EQ(commands[5].words[1].where.line, 5);
  EXPECT_EQ(commands[5].words[1].where.column, 6);
}

TEST(SplitBash, StampedeCommentsAreDirectivesOfTheNextCommand) {
  const auto commands = split(
      "#  stampede: capture t = json /t\n# a note\n#stampede:capture x = body (\\d+)\n"
      "curl a\ncurl b # stampede: capture y = json /y\n");
  ASSERT_EQ(commands.size(), 2U);
  ASSERT_EQ(commands[0].directives.size(), 2U);
  EXPECT_EQ(commands[0].directives[0].text, " capture t = json /t");
  EXPECT_EQ(commands[0].directives[0].where.line, 1);
  EXPECT_EQ(commands[0].directives[0].where.column, 13);
  EXPECT_EQ(commands[0].directives[1].text, "capture x = body (\\d+)");
  ASSERT_EQ(commands[1].directives.size(), 1U);  // at the end of its line, it is the line's
  EXPECT_EQ(commands[1].directives[0].text, " capture y = json /y");
  EXPECT_EQ(words_error("curl a\n# stampede: capture t = json /t\n"),
            "2:12: a '# stampede:' line must come before the curl command it is for");
}

TEST(SplitBash, ErrorsNameLineAndColumn) {
  EXPECT_EQ(words_error("curl \\\n  -H 'x"), "2:6: unterminated single quote (')");
  EXPECT_EQ(words_error("curl \"abc"), "1:6: unterminated double quote (\")");
  EXPECT_EQ(words_error("curl $'abc"), "1:6: unterminated $'...' quote");
  EXPECT_EQ(words_error("curl `id`"),
            "1:6: command substitution `...` is not supported (stampede expands only $NAME, "
            "${NAME} and ~; quote with '...' to send it as typed)");
  EXPECT_NE(words_error("curl \"$(id)\"").find("1:7: command substitution $(...) is not"),
            std::string::npos);
  EXPECT_NE(words_error("curl $((1+2))").find("1:6: arithmetic expansion"), std::string::npos);
  EXPECT_NE(words_error("curl ${A:-x}").find("1:6: the parameter expansion ${A...}"),
            std::string::npos);
  EXPECT_NE(words_error("curl $1").find("1:6: the special parameter $1"), std::string::npos);
  EXPECT_NE(words_error("curl \"${A\"").find("1:7: the parameter expansion"), std::string::npos);
  EXPECT_EQ(words_error("curl (a)"), "1:6: unsupported shell syntax '('");
}

TEST(SplitBash, VariablesExpandFromTheEnvironment) {
  EXPECT_EQ(bash("curl $HOME/x \"${A}/y\" '$A' ~/f a~ ~user"),
            (V{"curl", "/home/u/x", "1 2/y", "$A", "/home/u/f", "a~", "~user"}));
  EXPECT_TRUE(warnings.empty());
  // Unquoted, the value splits at blanks and an empty one is no word at all, as in bash.
  EXPECT_EQ(bash("curl x$A $EMPTY \"$EMPTY\" -d\\ $A"), (V{"curl", "x1", "2", "", "-d 1", "2"}));
  EXPECT_EQ(bash("curl \"$UNSET\"x"), (V{"curl", "x"}));
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_EQ(warnings[0].text, "$UNSET is not set; bash would give the empty string");
  EXPECT_EQ(warnings[0].where.column, 7);
}

TEST(SplitBash, HereStringsHereDocumentsAndInputFiles) {
  auto commands = split(
      "curl -d @- h <<< \"a $A\"\ncurl -d @- h <<'EOF' > out\n$A\n  EOF\nEOF\n"
      "curl -d @- h <<-END; curl x\n\t$A \\$A\n\tEND\ncurl -T - h < body.json");
  ASSERT_EQ(commands.size(), 5U);
  ASSERT_TRUE(commands[0].input);
  EXPECT_EQ(commands[0].input->text, "a 1 2\n");
  EXPECT_EQ(word_texts(commands[1]), (V{"curl", "-d", "@-", "h"}));
  EXPECT_EQ(commands[1].input->text, "$A\n  EOF\n");  // a quoted delimiter: no expansion
  EXPECT_EQ(commands[2].input->text, "1 2 $A\n");     // <<- strips leading tabs
  EXPECT_EQ(word_texts(commands[3]), (V{"curl", "x"}));
  EXPECT_FALSE(commands[3].input);
  EXPECT_TRUE(commands[4].input->from_file);
  EXPECT_EQ(commands[4].input->text, "body.json");
  commands = split("curl -d @- h <<EOF\nno end");
  EXPECT_EQ(commands.at(0).input->text, "no end\n");
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_NE(warnings[0].text.find("wanted 'EOF'"), std::string::npos);
  EXPECT_NE(words_error("curl h <<EOF\n$(id)\nEOF").find("2:1: command substitution"),
            std::string::npos);
}

TEST(SplitCmd, CaretsAndTheCRuntimeRules) {
  EXPECT_EQ(cmd(R"(curl ^"a b^" ^"x^&y^" ^"^\^"q^\^"^")"), (V{"curl", "a b", "x&y", "\"q\""}));
  EXPECT_EQ(cmd("curl ^\"50^%^2F^\" ^\n  -H ^\"k: v^\""), (V{"curl", "50%2F", "-H", "k: v"}));
  EXPECT_EQ(cmd("curl ^\"a^\n\nb^\""), (V{"curl", "a\nb"}));  // Chrome's new line in a value
  EXPECT_EQ(cmd("curl ^\"a^\r\n\r\nb^\""), (V{"curl", "a\nb"}));
  EXPECT_EQ(cmd(R"(curl "a ^ b" "say ""hi""" a\\b a\\\"b "a\\" x)"),
            (V{"curl", "a ^ b", "say \"hi\"", "a\\\\b", "a\\\"b", "a\\", "x"}));
  const auto commands = split_cmd("curl a & curl b\r\ncurl c > out.txt\n");
  ASSERT_EQ(commands.size(), 3U);
  EXPECT_EQ(word_texts(commands[2]), (V{"curl", "c"}));
}

TEST(SplitCmd, ErrorsNameLineAndColumn) {
  EXPECT_EQ(words_error("curl ^\n  -H \"abc", true), "2:6: unterminated double quote (\")");
}

TEST(DetectDialect, CaretsMeanCmd) {
  EXPECT_EQ(detect_dialect("curl 'a' \\\n -H 'b'"), Dialect::bash);
  EXPECT_EQ(detect_dialect("curl ^\"a^\""), Dialect::cmd);
  EXPECT_EQ(detect_dialect("curl a ^\r\n -H b"), Dialect::cmd);
  EXPECT_EQ(detect_dialect("\ncurl.exe \"http://h/\" -d \"{\"\"a\"\":1}\""), Dialect::cmd);
  EXPECT_EQ(split_commands("curl ^\"a b^\"", test_environment, warnings).front().words[1].text,
            "a b");
}

}  // namespace
}  // namespace stampede::curl
