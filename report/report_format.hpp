// Formatting helpers the reporters share, so every report spells numbers and codes the same way.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "server/statistics/metrics.hpp"

namespace stampede::report {

using statistics::Metrics;

/// `value` with `decimals` digits after the point; nan and inf print as 0 so no report shows them.
std::string format_fixed(double value, int decimals);

/// `value` with at least `decimals` digits after the point, and more for a small one, so that
/// three significant digits show ("0.001", not "0.00"); zeros past `decimals` are dropped.
std::string format_at_least(double value, int decimals);

/// `numerator / denominator`, or 0 when the denominator is 0 or the quotient is not finite.
double ratio(double numerator, double denominator);

/// `value` itself when finite, else 0: the guard before a number reaches a report.
double finite_or_zero(double value);

/// `value` rounded to `decimals` decimal places, so JSON shows measured digits, not binary
/// noise; always finite (nlohmann writes nan and inf as null), 0 for what is not.
double round_to(double value, int decimals);

/// A duration in seconds, as reports print elapsed time.
double to_seconds(std::chrono::nanoseconds duration);

/// `text` right-aligned in `width` columns; longer text is kept whole and widens the column.
std::string pad_left(const std::string& text, std::size_t width);

/// A line of the text report as ab aligns it: `label` padded to column 24, then `value`.
std::string aligned_line(const std::string& label, const std::string& value);

/// Nanoseconds as milliseconds with three decimals ("1.503").
std::string ms_text(std::uint64_t ns);

/// `text` left-aligned in `width` columns; longer text is kept whole.
std::string pad_right(const std::string& text, std::size_t width);

/// `text` safe to print on a terminal: control characters (C0, DEL, C1) and bytes that are not
/// UTF-8 become "\xHH", so what a server sends (its Server header) cannot move the cursor,
/// recolour the screen or garble the report. Printable UTF-8 is kept as is.
std::string printable(std::string_view text);

/// Status code counts as go-stress-testing prints them, ascending: "200:9800;500:3"; "" when none.
std::string status_codes_text(const std::map<int, std::uint64_t>& codes);

/// gRPC codes by name, go-stress-testing's way: "OK:998;UNAVAILABLE:2" (empty when none).
std::string grpc_codes_text(const std::map<int, std::uint64_t>& codes);

/// Non-zero counts of the failures a status code does not tell, in report order:
/// "connect:1;timeout:3;capture:2"; "" when none. Not `verify` nor `handshake`: a response the
/// verifier rejected and a refused upgrade are counted under their status (and checks apart).
std::string failures_beside_codes_text(const Metrics& metrics);

/// Responses whose status is outside 200-299 (ab's "Non-2xx responses").
std::uint64_t non_2xx_count(const std::map<int, std::uint64_t>& codes);

}  // namespace stampede::report
