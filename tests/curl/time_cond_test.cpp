// curl_getdate's forms, each checked against what curl 7.88.1 sent for it with -z.
#include "curl/time_cond.hpp"

#include <gtest/gtest.h>

namespace stampede::curl {
namespace {

TEST(ParseCurlDate, TheFormsCurlReads) {
  const long long nov_6_1994 = 784111777;  // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(parse_curl_date("Sun, 06 Nov 1994 08:49:37 GMT"), nov_6_1994);
  EXPECT_EQ(parse_curl_date("Sunday, 06-Nov-94 08:49:37 GMT"), nov_6_1994);
  EXPECT_EQ(parse_curl_date("Sun Nov  6 08:49:37 1994"), nov_6_1994);
  EXPECT_EQ(parse_curl_date("06 Nov 1994 08:49 PST"), nov_6_1994 - 37 + 8 * 3600);
  EXPECT_EQ(parse_curl_date("20230120"), 1674172800);
  EXPECT_EQ(parse_curl_date("20230120 10:00"), 1674172800 + 10 * 3600);
  EXPECT_EQ(parse_curl_date("Jan 20 2023 10:00:00 +0100"), 1674172800 + 9 * 3600);
  EXPECT_EQ(parse_curl_date("Jan 5, 2020 11:12:13 CET"), 1578219133);  // 10:12:13 GMT
  EXPECT_EQ(parse_curl_date("1 Jan 71"), 365 * 86400);
  EXPECT_EQ(parse_curl_date("1 Jan 70"), 3155760000);  // two digits up to 70 are 20xx to curl
}

TEST(ParseCurlDate, WhatCurlDoesNotRead) {
  for (const char* text :
       {"2023-01-20", "1994-11-06T08:49:37Z", "yesterday", "12 hours ago", "1700000000", "5 Jan",
        "2020 Jan 5 12:00 UTC+2", "", "25:00 1 Jan 2000"}) {
    EXPECT_FALSE(parse_curl_date(text)) << text;
  }
}

}  // namespace
}  // namespace stampede::curl
