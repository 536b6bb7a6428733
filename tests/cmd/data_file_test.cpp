// CSV rows tests: RFC 4180's quotes and line ends, the header, and each error's place.
#include "cmd/data_file.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

using Row = std::vector<std::string>;

std::string error_of(std::string_view text) {
  try {
    (void)parse_csv(text, "u.csv");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(DataFile, QuotesCommasLineEndsAndBlankLines) {
  const auto data = parse_csv(
      "\xEF\xBB\xBF"
      "email,name,note\r\na@x.org,\"Doe, Jane\",\"said "
      "\"\"hi\"\"\"\r\n\r\nb@x.org,Bo,\"two\nlines\"\n"
      "c@x.org,,",
      "u.csv");
  EXPECT_EQ(data.columns, (Row{"email", "name", "note"}));
  ASSERT_EQ(data.rows.size(), 3U);
  EXPECT_EQ(data.rows[0], (Row{"a@x.org", "Doe, Jane", "said \"hi\""}));
  EXPECT_EQ(data.rows[1], (Row{"b@x.org", "Bo", "two\nlines"}));
  EXPECT_EQ(data.rows[2], (Row{"c@x.org", "", ""}));
  EXPECT_EQ(data.mode, model::DataMode::per_user);
}

TEST(DataFile, ErrorsNameTheLine) {
  EXPECT_EQ(error_of("a,b\n1,2\n3\n"), "u.csv:3: 1 fields, but the header names 2 columns");
  EXPECT_EQ(error_of("a,b\n\"1\n2\",3\n4\n"),
            "u.csv:4: 1 fields, but the header names 2 columns");  // after a quoted line end
  EXPECT_EQ(error_of("a,b\n1,\"2\n"), "u.csv:2: a quote (\") is not closed");
  EXPECT_EQ(error_of("a,,c\n1,2,3\n"),
            "u.csv:1: column 2 has no name (the first row names the columns, for ${csv:NAME})");
  EXPECT_EQ(error_of("a,b,a\n1,2,3\n"), "u.csv:1: column 'a' is named twice");
  EXPECT_EQ(error_of("a,b\n"), "u.csv: no rows after the header");
  EXPECT_EQ(error_of(""),
            "u.csv:1: column 1 has no name (the first row names the columns, for "
            "${csv:NAME})");
}

TEST(DataFile, ModesAndNames) {
  const auto path = testing::TempDir() + "stampede_rows.csv";
  std::ofstream(path) << "id\n1\n2\n";
  EXPECT_EQ(read_data_file(path, "per-request")->mode, model::DataMode::per_request);
  EXPECT_EQ(read_data_file(path, "random")->rows.size(), 2U);
  EXPECT_THROW((void)read_data_file(path, "round-robin"), UsageError);
  EXPECT_THROW((void)read_data_file(path + ".missing", ""), UsageError);
  EXPECT_TRUE(is_csv_name("users.csv"));
  EXPECT_TRUE(is_csv_name("dir/USERS.CSV"));
  EXPECT_FALSE(is_csv_name("msg.bin"));
  EXPECT_FALSE(is_csv_name(".csv"));
  EXPECT_FALSE(is_csv_name(""));
}

}  // namespace
}  // namespace stampede::cmd
