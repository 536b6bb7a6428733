// Formats: one table names every --output format, finds it by name and renders a Summary.
#include "report/formats.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace stampede::report {
namespace {

TEST(Formats, TextFirstThenJsonAndCsv) {
  EXPECT_EQ(format_names("|"), "text|json|csv");
  EXPECT_EQ(format_choices("--output "), "--output text, --output json or --output csv");
  EXPECT_EQ(formats().front().name, "text");
}

TEST(Formats, FindByNameOnly) {
  ASSERT_NE(find_format("json"), nullptr);
  EXPECT_EQ(find_format("json")->name, "json");
  EXPECT_EQ(find_format("xml"), nullptr);
  EXPECT_EQ(find_format("JSON"), nullptr);
  EXPECT_EQ(find_format(""), nullptr);
}

TEST(Formats, EachRendersASummaryWithItsOwnName) {
  std::set<std::string_view> names;
  statistics::Summary summary;
  summary.total.note_server("nginx");
  for (const Format& format : formats()) {
    EXPECT_TRUE(names.insert(format.name).second) << format.name << " twice";
    EXPECT_FALSE(format.description.empty()) << format.name;
    EXPECT_EQ(format.description.find('\n'), std::string_view::npos) << format.name;
    // Every format but CSV's numbers names the server.
    if (format.name != "csv") {
      EXPECT_NE(format.render(summary).find("nginx"), std::string::npos) << format.name;
    }
  }
  const Format& json = *find_format("json");
  EXPECT_FALSE(json.rows_on_stdout);  // stdout holds the document alone
  EXPECT_TRUE(nlohmann::json::accept(json.render(summary)));
  EXPECT_TRUE(find_format("text")->rows_on_stdout);
  EXPECT_FALSE(find_format("csv")->rows_on_stdout);
}

}  // namespace
}  // namespace stampede::report
