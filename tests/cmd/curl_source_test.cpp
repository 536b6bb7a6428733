// -p FILE:WEIGHT: the weight after the last colon, a file name otherwise, a bad weight refused.
#include "cmd/curl_source.hpp"

#include <gtest/gtest.h>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

TEST(CurlSource, AWeightIsTheDigitsAfterTheLastColon) {
  EXPECT_EQ(curl_source("browse.curl.sh:8").path, "browse.curl.sh");
  EXPECT_EQ(curl_source("browse.curl.sh:8").weight, 8U);
  EXPECT_EQ(curl_source("a:b.sh:1000000").path, "a:b.sh");
  EXPECT_EQ(curl_source("a:b.sh:1000000").weight, 1000000U);
  for (const auto* file : {"plain.sh", "C:\\flows\\a.sh", "a.sh:", ":3", "a.sh:x1"}) {
    EXPECT_EQ(curl_source(file).path, file);
    EXPECT_EQ(curl_source(file).weight, 1U);
  }
}

TEST(CurlSource, AWeightOutOfRangeIsAUsageError) {
  for (const auto* text : {"a.sh:0", "a.sh:1000001", "a.sh:99999999999999999999999"}) {
    try {
      (void)curl_source(text);
      ADD_FAILURE() << text;
    } catch (const UsageError& error) {
      EXPECT_EQ(
          std::string(error.what()),
          "-p " + std::string(text) + ": a flow's weight is a whole number from 1 to 1000000");
    }
  }
}

TEST(CurlSource, AnyHarLooksPastTheWeight) {
  EXPECT_TRUE(any_har({"a.curl.sh:3", "session.har:1"}));
  EXPECT_FALSE(any_har({"a.curl.sh:3", "b.sh"}));
}

}  // namespace
}  // namespace stampede::cmd
