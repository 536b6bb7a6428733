// Capture grammar tests: the three sources, names, pointers, patterns and each error's message.
#include "curl/capture_spec.hpp"

#include <gtest/gtest.h>

namespace stampede::curl {
namespace {

std::string capture_error(std::string_view text) {
  try {
    (void)parse_capture(text);
  } catch (const CaptureError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(CaptureSpec, JsonHeaderAndBody) {
  EXPECT_EQ(parse_capture(" token = json /data/access_token "),
            (model::Capture{"token", model::CaptureSource::json, "/data/access_token", ""}));
  EXPECT_EQ(parse_capture("doc=json"), (model::Capture{"doc", model::CaptureSource::json, "", ""}));
  EXPECT_EQ(parse_capture("id = header Location /orders/(\\d+)"),
            (model::Capture{"id", model::CaptureSource::header, "location", "/orders/(\\d+)"}));
  EXPECT_EQ(parse_capture("s = header X-Session"),
            (model::Capture{"s", model::CaptureSource::header, "x-session", ""}));
  // The pattern is the rest of the text, spaces and `=` included.
  EXPECT_EQ(
      parse_capture("csrf = body name=\"csrf\" value=\"([^\"]+)\""),
      (model::Capture{"csrf", model::CaptureSource::body, "", "name=\"csrf\" value=\"([^\"]+)\""}));
  EXPECT_EQ(parse_capture("_x1 = json /a~1b/~0c/0").path, "/a~1b/~0c/0");
}

TEST(CaptureSpec, ErrorsSayWhatIsWrongAndHowItIsWritten) {
  EXPECT_EQ(capture_error("token json /t"),
            "no '=' in 'token json /t' (write NAME = json /pointer, NAME = header Name [REGEX] "
            "or NAME = body REGEX)");
  EXPECT_EQ(capture_error("1x = json /t"),
            "'1x' is not a capture's name (letters, digits and _, not starting with a digit)");
  EXPECT_EQ(capture_error("a-b = json /t").substr(0, 28), "'a-b' is not a capture's nam");
  EXPECT_EQ(capture_error("t = xml /t"),
            "unknown source 'xml' (write NAME = json /pointer, NAME = header Name [REGEX] or "
            "NAME = body REGEX)");
  EXPECT_EQ(capture_error("t = json token").substr(0, 31), "'token' is not a JSON Pointer (");
  EXPECT_EQ(capture_error("t = json /a~2").substr(0, 30), "'/a~2' is not a JSON Pointer (");
  EXPECT_EQ(capture_error("t = header").substr(0, 23), "header: which header? (");
  EXPECT_EQ(capture_error("t = body").substr(0, 31), "body: which regular expression?");
  EXPECT_EQ(capture_error("t = body (a)(b)"),
            "'(a)(b)' has 2 groups; a capture keeps one (make the others (?:...))");
  EXPECT_EQ(capture_error("t = body (unclosed").substr(0, 41),
            "'(unclosed' is not a regular expression (");
  EXPECT_EQ(capture_error("t = body a{2,1}").substr(0, 38),
            "'a{2,1}' is not a regular expression (");
}

}  // namespace
}  // namespace stampede::curl
