// HAR replay: which entries are chosen, what each sends, recorded pauses, cookies, bad files.
#include "curl/har.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "curl/har_entry.hpp"

namespace stampede::curl {
namespace {

using nlohmann::json;

json entry(const std::string& method, const std::string& url, const std::string& started,
           double time) {
  return {
      {"startedDateTime", started},
      {"time", time},
      {"request",
       {{"method", method}, {"url", url}, {"httpVersion", "HTTP/1.1"}, {"headers", json::array()}}},
      {"response", {{"status", 200}, {"headers", json::array()}, {"content", json::object()}}}};
}

std::string har(const json& entries) { return json{{"log", {{"entries", entries}}}}.dump(); }

std::optional<std::string> header(const model::Request& request, const std::string& name) {
  for (const auto& [n, v] : request.headers) {
    if (n == name) return v;
  }
  return std::nullopt;
}

TEST(Har, StaticAssetsAreLeftOutByTypeMimeOrExtensionAndTheChoiceIsNoted) {
  auto page = entry("GET", "http://shop/index.html", "2026-12-02T13:00:00.000Z", 10);
  page["_resourceType"] = "document";
  auto css = entry("GET", "http://shop/s.css?v=2", "2026-12-02T13:00:00.010Z", 5);
  auto icon = entry("GET", "http://shop/favicon", "2026-12-02T13:00:00.020Z", 5);
  icon["_resourceType"] = "other";
  icon["response"]["content"]["mimeType"] = "image/x-icon";
  auto font = entry("GET", "http://shop/f", "2026-12-02T13:00:00.030Z", 5);
  font["_resourceType"] = "font";
  auto data_url = entry("GET", "data:image/png;base64,AAAA", "2026-12-02T13:00:00.040Z", 0);
  auto api = entry("GET", "http://shop/api/items.js", "2026-12-02T13:00:00.050Z", 5);
  api["_resourceType"] = "fetch";  // what Chrome says wins over the extension
  const auto parsed = parse_har_text(har({page, css, icon, font, data_url, api}), "s.har", {});
  ASSERT_EQ(parsed.steps.size(), 2U);
  EXPECT_EQ(parsed.steps[0].target, "/index.html");
  EXPECT_EQ(parsed.steps[1].target, "/api/items.js");
  ASSERT_EQ(parsed.notes.size(), 1U);
  EXPECT_EQ(parsed.notes[0],
            "s.har: replaying 2 of 6 entries (left out: 1 font, 1 image, 1 not HTTP, 1 "
            "stylesheet); --har-include REGEX replays the entries whose URL it matches, assets "
            "too");
}

TEST(Har, IncludeReplacesTheDefaultChoiceAndExcludeLeavesOutWhatItMatches) {
  const auto entries = har({entry("GET", "http://shop/a.png", "2026-12-02T13:00:00Z", 1),
                            entry("GET", "http://api.shop/v1/x", "2026-12-02T13:00:01Z", 1),
                            entry("GET", "http://api.shop/v1/health", "2026-12-02T13:00:02Z", 1)});
  const auto all = parse_har_text(entries, "s.har", {".", ""});
  EXPECT_EQ(all.steps.size(), 3U);
  const auto api = parse_har_text(entries, "s.har", {"api\\.shop", "health$"});
  ASSERT_EQ(api.steps.size(), 1U);
  EXPECT_EQ(api.steps[0].target, "/v1/x");
  EXPECT_EQ(api.notes[0],
            "s.har: replaying 1 of 3 entries (left out: 1 by --har-exclude, 1 not in "
            "--har-include)");
}

TEST(Har, HeadersAClientSetsAreDroppedAndBodiesGoAsRecorded) {
  auto post = entry("POST", "https://shop/api/login", "2026-12-02T13:00:00Z", 1);
  post["request"]["httpVersion"] = "h2";
  post["request"]["headers"] =
      json::array({{{"name", ":authority"}, {"value", "shop"}},
                   {{"name", "Host"}, {"value", "shop"}},
                   {{"name", "content-length"}, {"value", "13"}},
                   {{"name", "accept-encoding"}, {"value", "gzip, br"}},
                   {{"name", "x-empty"}, {"value", ""}},
                   {{"name", "Content-Type"}, {"value", "application/json"}}});
  post["request"]["postData"] = {{"mimeType", "application/json"}, {"text", R"({"u":"ada"})"}};
  auto form = entry("PUT", "http://shop/api/search", "2026-12-02T13:00:01Z", 1);
  form["request"]["postData"] = {{"mimeType", "application/x-www-form-urlencoded"},
                                 {"params", json::array({{{"name", "q"}, {"value", "red boots"}},
                                                         {{"name", "n"}, {"value", "1&2"}}})}};
  auto head = entry("HEAD", "http://shop/ping", "2026-12-02T13:00:02Z", 1);
  const auto parsed = parse_har_text(har({post, form, head}), "s.har", {});
  ASSERT_EQ(parsed.steps.size(), 3U);
  const auto& login = parsed.steps[0];
  EXPECT_EQ(login.method, "POST");
  EXPECT_EQ(login.body, "{\"u\":\"ada\"}");
  EXPECT_EQ(login.http_version, model::HttpVersion::http2);
  EXPECT_TRUE(login.compressed);
  EXPECT_EQ(header(login, "x-empty"), "");
  EXPECT_EQ(header(login, "Content-Type"), "application/json");
  for (const auto* dropped : {":authority", "Host", "content-length", "accept-encoding"}) {
    EXPECT_FALSE(header(login, dropped)) << dropped;
  }
  EXPECT_EQ(parsed.steps[1].method, "PUT");
  EXPECT_EQ(parsed.steps[1].body, "q=red+boots&n=1%262");
  EXPECT_EQ(header(parsed.steps[1], "Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(parsed.steps[2].method, "HEAD");
  EXPECT_TRUE(parsed.steps[2].body.empty());
}

TEST(Har, CookiesAnEarlierReplayedResponseSetAreLeftToTheJar) {
  auto login = entry("POST", "http://shop/login", "2026-12-02T13:00:00Z", 1);
  login["request"]["headers"] = json::array({{{"name", "Cookie"}, {"value", "theme=dark"}}});
  login["response"]["headers"] =
      json::array({{{"name", "Set-Cookie"}, {"value", "sid=1; Path=/\nlang=en"}}});
  auto page = entry("GET", "http://shop/page", "2026-12-02T13:00:01Z", 1);
  page["request"]["headers"] =
      json::array({{{"name", "Cookie"}, {"value", "theme=dark; sid=1; lang=en; ab=b"}}});
  auto image = entry("GET", "http://shop/i.png", "2026-12-02T13:00:02Z", 1);
  image["response"]["cookies"] = json::array({{{"name", "ab"}, {"value", "c"}}});
  auto last = entry("GET", "http://shop/last", "2026-12-02T13:00:03Z", 1);
  last["request"]["headers"] = json::array({{{"name", "cookie"}, {"value", "sid=1; ab=c"}}});
  const auto parsed = parse_har_text(har({login, page, image, last}), "s.har", {});
  ASSERT_EQ(parsed.steps.size(), 3U);
  EXPECT_EQ(header(parsed.steps[0], "Cookie"), "theme=dark");
  EXPECT_EQ(header(parsed.steps[1], "Cookie"), "theme=dark; ab=b");
  // The image that set `ab` is not replayed, so its value is sent as recorded.
  EXPECT_EQ(header(parsed.steps[2], "Cookie"), "ab=c");
}

TEST(Har, PausesAreTheGapsFromOneReplayedEntrysEndToTheNextsStart) {
  const auto parsed = parse_har_text(
      har({entry("GET", "http://h/a", "2026-12-02T13:00:00.000Z", 100),
           entry("GET", "http://h/b.png", "2026-12-02T13:00:00.500Z", 100),
           entry("GET", "http://h/b", "2026-12-02T14:00:00.400+01:00", 50),  // 300 ms after a
           entry("GET", "http://h/c", "2026-12-02T13:00:00.420Z", 10)}),     // overlaps b
      "s.har", {});
  ASSERT_EQ(parsed.steps.size(), 3U);
  EXPECT_EQ(parsed.steps[0].pause.count(), 0);
  EXPECT_EQ(parsed.steps[1].pause.count(), 300);
  EXPECT_EQ(parsed.steps[2].pause.count(), 0);
}

TEST(Har, Iso8601AsBrowsersWriteIt) {
  EXPECT_EQ(iso8601_ms("1970-01-01T00:00:01.250Z"), 1250.0);
  EXPECT_EQ(iso8601_ms("1970-01-01T01:00:00+01:00"), 0.0);
  EXPECT_EQ(iso8601_ms("1969-12-31T23:00:00.5-01:00"), 500.0);
  EXPECT_FALSE(iso8601_ms("1970-01-01 00:00:00Z"));
  EXPECT_FALSE(iso8601_ms("1970-13-01T00:00:00Z"));
  EXPECT_FALSE(iso8601_ms("yesterday"));
}

void expect_error(const std::string& text, const HarChoice& choice, const std::string& message) {
  try {
    (void)parse_har_text(text, "s.har", choice);
    ADD_FAILURE() << "no error for " << text;
  } catch (const HarError& error) {
    EXPECT_EQ(std::string(error.what()), message);
  }
}

TEST(Har, BadFilesAreOneLineErrors) {
  expect_error("curl http://h/", {},
               "s.har: not a HAR file: parse error at line 1, column 1: syntax error while "
               "parsing value - invalid literal; last read: 'c'");
  expect_error("{\"log\":3E333}", {},  // the fuzzer's: nlohmann throws out_of_range for it
               "s.har: not a HAR file: number overflow parsing '3E333'");
  expect_error("{\"log\":{}}", {},
               "s.har: not a HAR file: no log.entries (save one with a browser's \"Save all as "
               "HAR\")");
  expect_error(har(json::array({json{{"request", {{"url", "http://h/"}}}}})), {},
               "s.har: entry 1 has no request.method or request.url (is this a HAR file?)");
  expect_error(har(json::array({entry("GET", "http://h/a.css", "", 0)})), {},
               "s.har: nothing to replay: replaying 0 of 1 entry (left out: 1 stylesheet); "
               "--har-include REGEX replays the entries whose URL it matches, assets too");
  expect_error(har(json::array({entry("GET", "http://h/", "", 0)})), {"(unclosed", ""},
               "s.har: bad --har-include '(unclosed': Unmatched marking parenthesis ( or \\(.  "
               "The error occurred while parsing the regular expression: '(unclosed>>>HERE>>>'.");
  expect_error(har(json::array({entry("G T", "http://h/", "", 0)})), {},
               "s.har: entry 1 (G T http://h/): bad method 'G T' (-X takes one word)");
  expect_error(har(json::array({entry("GET", "http://[::1/", "", 0)})), {},
               "s.har: entry 1 (GET http://[::1/): malformed URL 'http://[::1/' (expected "
               "http://host[:port]/path, https://, ws://, wss://, grpc:// or grpcs://...)");
}

TEST(Har, IsHarByName) {
  EXPECT_TRUE(is_har("session.HAR"));
  EXPECT_TRUE(is_har("/tmp/x.har"));
  EXPECT_FALSE(is_har("x.har.sh"));
  EXPECT_FALSE(is_har(""));
}

}  // namespace
}  // namespace stampede::curl
