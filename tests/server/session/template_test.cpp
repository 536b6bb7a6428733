// Template tests: the variables' grammar, their values for a user, and the errors.
#include "server/session/template.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace stampede::session {
namespace {

std::string rendered(std::string_view text, UserValues& values) {
  std::string out;
  render(parse_template(text), values, out);
  return out;
}

std::string template_error(std::string_view text) {
  try {
    (void)parse_template(text);
  } catch (const TemplateError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(Template, PiecesAndVariables) {
  const auto parsed = parse_template("/u/${user}/r/${seq}?x=$${seq}&z=${uuid}");
  ASSERT_EQ(parsed.variables.size(), 3U);
  EXPECT_EQ(parsed.pieces, (std::vector<std::string>{"/u/", "/r/", "?x=${seq}&z=", ""}));
  EXPECT_TRUE(parse_template("no variables, $ { }").constant());
  EXPECT_TRUE(has_template("a${b"));
  EXPECT_FALSE(has_template("a$b{c}"));
}

TEST(Template, ValuesOfAUser) {
  UserValues values(7);
  values.round = 3;
  EXPECT_EQ(rendered("${user}-${seq}", values), "7-3");
  EXPECT_EQ(rendered("${rand:5-5}", values), "5");
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const auto value = std::stoull(rendered("${rand:10-19}", values));
    EXPECT_GE(value, 10U);
    EXPECT_LE(value, 19U);
    seen.insert(std::to_string(value));
  }
  EXPECT_EQ(seen.size(), 10U);  // every value of a small range comes up
  const std::regex v4("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  const auto a = rendered("${uuid}", values);
  EXPECT_TRUE(std::regex_match(a, v4)) << a;
  EXPECT_NE(a, rendered("${uuid}", values));
  UserValues same(7);
  UserValues other(8);
  EXPECT_EQ(rendered("${uuid}", same), rendered("${uuid}", other = UserValues(7)));  // seeded
  const auto now = std::stoll(rendered("${now}", values));
  const auto now_ms = std::stoll(rendered("${now_ms}", values));
  EXPECT_GT(now, 1700000000);
  EXPECT_LE(now_ms / 1000 - now, 1);
  EXPECT_EQ(
      rendered("18446744073709551615:${rand:18446744073709551615-18446744073709551615}", values),
      "18446744073709551615:18446744073709551615");
}

TEST(Template, EnvironmentIsReadOnce) {
  ::setenv("STAMPEDE_TEMPLATE_TEST", "v1", 1);
  const auto parsed = parse_template("x=${env:STAMPEDE_TEMPLATE_TEST}");
  ::setenv("STAMPEDE_TEMPLATE_TEST", "v2", 1);
  EXPECT_TRUE(parsed.constant());
  EXPECT_EQ(parsed.pieces.front(), "x=v1");
}

TEST(Template, Errors) {
  EXPECT_NE(template_error("${nope}").find("unknown variable ${nope} (known: ${seq}"),
            std::string::npos);
  EXPECT_NE(template_error("a ${seq").find("unclosed ${"), std::string::npos);
  for (const auto* bad : {"${rand:5}", "${rand:9-1}", "${rand:a-b}", "${rand:-1-5}", "${rand:}"}) {
    EXPECT_NE(template_error(bad).find("bad range in"), std::string::npos) << bad;
  }
  EXPECT_EQ(template_error("${env:STAMPEDE_SURELY_UNSET}"),
            "${env:STAMPEDE_SURELY_UNSET}: STAMPEDE_SURELY_UNSET is not set in the environment");
}

TEST(Template, CapturedVariablesRenderWhatTheUserLastKept) {
  const std::vector<std::string> names{"token", "id"};
  const auto parsed = parse_template("/o/${id}?t=${token}&u=${user}", {names, {}});
  UserValues values(3);
  values.captured = {"", ""};  // nothing captured yet: empty, as the first round sends it
  std::string out;
  render(parsed, values, out);
  EXPECT_EQ(out, "/o/?t=&u=3");
  values.captured = {"abc", "17"};
  out.clear();
  render(parsed, values, out);
  EXPECT_EQ(out, "/o/17?t=abc&u=3");
  try {
    (void)parse_template("${tokn}", {names, {}});
    FAIL() << "no error";
  } catch (const TemplateError& error) {
    EXPECT_TRUE(std::string_view(error.what()).ends_with("; captured: ${token} ${id})"))
        << error.what();
  }
}

TEST(Template, CsvColumnsRenderTheRoundsRow) {
  const std::vector<std::string> columns{"email", "name"};
  const auto parsed = parse_template("/u/${csv:name}?e=${csv:email}", {{}, columns});
  UserValues values(0);
  const std::vector<std::string> row{"a@x.org", "Doe, Jane"};
  values.row = &row;
  std::string out;
  render(parsed, values, out);
  EXPECT_EQ(out, "/u/Doe, Jane?e=a@x.org");
  EXPECT_EQ(template_error("${csv:email}"),
            "${csv:email} needs --data-file FILE.csv, whose header names the columns");
  try {
    (void)parse_template("${csv:mail}", {{}, columns});
    FAIL() << "no error";
  } catch (const TemplateError& error) {
    EXPECT_STREQ(error.what(),
                 "${csv:mail}: --data-file has no column 'mail' (its columns: "
                 "email, name)");
  }
}

TEST(Template, ValuesAreMadeSafeForTheirPlace) {
  const std::vector<std::string> columns{"v"};
  auto head = parse_template("GET /a?v=${csv:v}&u=${user} HTTP/1.1\r\nX-V: ${csv:v}\r\n\r\n",
                             {{}, columns});
  place_variables(head, Place::header, Place::target);
  EXPECT_EQ(head.variables[0].place, Place::target);
  EXPECT_EQ(head.variables[2].place, Place::header);
  UserValues values(0);
  const std::vector<std::string> row{"Doe, J\r\nX-Evil: 1/&é"};
  values.row = &row;
  std::string out;
  render(head, values, out);
  EXPECT_EQ(out,
            "GET /a?v=Doe%2C%20J%0D%0AX-Evil%3A%201%2F%26%C3%A9&u=0 HTTP/1.1\r\n"
            "X-V: Doe, J  X-Evil: 1/&é\r\n\r\n");
  ASSERT_TRUE(values.unsafe);  // the header's value: the request must not go
  EXPECT_EQ(values.unsafe->slot, 0U);
  EXPECT_EQ(values.unsafe->place, Place::header);
  values.unsafe.reset();
  auto body = parse_template("{\"v\":\"${csv:v}\"}", {{}, columns});
  out.clear();
  render(body, values, out);
  EXPECT_EQ(out, "{\"v\":\"Doe, J\r\nX-Evil: 1/&é\"}");  // a body takes the value as it is
  EXPECT_FALSE(values.unsafe);
}

TEST(Template, ACapturedValueWithANulIsUnsafeInAHeader) {
  const std::vector<std::string> captured{"token"};
  auto head =
      parse_template("GET / HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n", {captured, {}});
  place_variables(head, Place::header, Place::target);
  UserValues values(0);
  values.captured = {std::string("abc", 3)};
  std::string out;
  render(head, values, out);
  EXPECT_FALSE(values.unsafe);
  values.captured = {std::string("a\0c", 3)};
  render(head, values, out);
  ASSERT_TRUE(values.unsafe);
  EXPECT_EQ(values.unsafe->kind, VariableKind::captured);
}

TEST(Template, BuiltinNamesAreNotForCaptures) {
  for (const auto* name : {"seq", "user", "uuid", "now", "now_ms", "rand", "env", "csv"}) {
    EXPECT_TRUE(is_builtin(name)) << name;
  }
  EXPECT_FALSE(is_builtin("token"));
  EXPECT_FALSE(is_builtin("sequence"));
}

}  // namespace
}  // namespace stampede::session
