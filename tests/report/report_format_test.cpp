// Report formatting helpers: fixed decimals without nan/inf, padding, and code lists.
#include "report/report_format.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <map>
#include <string>
#include <string_view>

namespace stampede::report {

using statistics::Metrics;
namespace {

TEST(ReportFormat, FixedRoundsAndNeverPrintsNanOrInf) {
  EXPECT_EQ(format_fixed(12.3456, 3), "12.346");  // rounded, not truncated
  EXPECT_EQ(format_fixed(500, 2), "500.00");
  EXPECT_EQ(format_fixed(std::numeric_limits<double>::quiet_NaN(), 2), "0.00");
  EXPECT_EQ(format_fixed(std::numeric_limits<double>::infinity(), 1), "0.0");
  EXPECT_EQ(format_fixed(-0.0001, 2), "0.00");  // no "-0.00"
  EXPECT_EQ(format_fixed(-1.5, 1), "-1.5");
}

TEST(ReportFormat, AtLeastShowsThreeSignificantDigitsOfASmallValue) {
  EXPECT_EQ(format_at_least(0.001, 2), "0.001");  // --rate 0.001 printed "0.00"
  EXPECT_EQ(format_at_least(0.0125, 2), "0.0125");
  EXPECT_EQ(format_at_least(1000, 2), "1000.00");
  EXPECT_EQ(format_at_least(0.5, 0), "0.5");  // a sweep's 500 ms warm-up printed "0 s"
  EXPECT_EQ(format_at_least(1.5, 0), "1.5");
  EXPECT_EQ(format_at_least(2, 0), "2");
  EXPECT_EQ(format_at_least(0.2, 0), "0.2");
  EXPECT_EQ(format_at_least(0, 0), "0");
  EXPECT_EQ(format_at_least(1e-12, 2), "0.00");
  EXPECT_EQ(format_at_least(std::numeric_limits<double>::quiet_NaN(), 2), "0.00");
}

TEST(ReportFormat, RatioGuardsZeroDenominators) {
  EXPECT_EQ(ratio(1000, 2), 500.0);
  EXPECT_EQ(ratio(1000, 0), 0.0);
  EXPECT_EQ(ratio(0, 0), 0.0);
  EXPECT_EQ(ratio(1e300, 1e-300), 0.0);  // overflows to inf
}

TEST(ReportFormat, Padding) {
  EXPECT_EQ(pad_left("42", 5), "   42");
  EXPECT_EQ(pad_right("42", 5), "42   ");
  EXPECT_EQ(pad_left("123456", 3), "123456");  // never cut
  EXPECT_EQ(to_seconds(std::chrono::milliseconds{2500}), 2.5);
}

TEST(ReportFormat, StatusCodesAsGoStressTestingPrintsThem) {
  EXPECT_EQ(status_codes_text({{500, 3}, {200, 9800}}), "200:9800;500:3");
  EXPECT_EQ(status_codes_text({}), "");
  EXPECT_EQ(non_2xx_count({{200, 9800}, {204, 1}, {301, 2}, {500, 3}}), 5u);
}

TEST(ReportFormat, FailuresBesideCodesListsNonZeroKindsInReportOrder) {
  Metrics metrics;
  EXPECT_EQ(failures_beside_codes_text(metrics), "");
  model::Result failed;
  failed.error = model::ErrorKind::verify;
  metrics.add(failed);
  failed.error = model::ErrorKind::timeout;
  metrics.add(failed);
  metrics.add(failed);
  failed.error = model::ErrorKind::connect;
  metrics.add(failed);
  EXPECT_EQ(failures_beside_codes_text(metrics), "connect:1;timeout:2");  // verify has a status
  // A response that lacked a capture's value has a status too, which does not say it failed.
  failed.error = model::ErrorKind::capture;
  failed.status = 200;
  metrics.add(failed);
  EXPECT_EQ(failures_beside_codes_text(metrics), "connect:1;timeout:2;capture:1");
}

TEST(ReportFormat, PrintableEscapesControlsAndBrokenUtf8) {
  EXPECT_EQ(printable("nginx/1.22.1"), "nginx/1.22.1");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x82"),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x82");  // é € 🐂
  EXPECT_EQ(printable("a\x1b[31mb\x7f\tc"), "a\\x1B[31mb\\x7F\\x09c");
  EXPECT_EQ(printable("\xc2\x9b"), "\\xC2\\x9B");  // C1 CSI, even well-formed
  EXPECT_EQ(printable("\xff\xfe"), "\\xFF\\xFE");
  EXPECT_EQ(printable("\xc0\xaf"), "\\xC0\\xAF");                      // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xED\\xA0\\x80");             // a surrogate
  EXPECT_EQ(printable("\xe2\x82"), "\\xE2\\x82");                      // cut short
  EXPECT_EQ(printable(std::string("\xe2\x82") + 'A'), "\\xE2\\x82A");  // A starts afresh
  EXPECT_EQ(printable(std::string_view("a\0b", 3)), "a\\x00b");
}

}  // namespace
}  // namespace stampede::report
