// The live table: one fixed-width row a second while a run goes, in go-stress-testing's layout.
#include "report/live_row.hpp"

#include <array>
#include <cstddef>

#include "report/report_format.hpp"

namespace stampede::report {

using statistics::Histogram;
using statistics::Metrics;
using statistics::to_ms;
namespace {

// Column widths: counts hold 9 digits (a billion requests), qps 9999999.99 and the ms columns
// 99999.99 (100 s), so rows stay aligned far past 10M requests and a 30 s timeout.
constexpr std::array<std::size_t, 8> widths{8, 6, 9, 9, 10, 8, 8, 8};
constexpr std::array<const char*, 8> headings{"elapsed", "users",  "success", "failure",
                                              "qps",     "max ms", "min ms",  "avg ms"};
// The connection columns: open holds 9 digits, per-second counts 7 (closed/s needs 8 for its
// heading), KiB received per second 99999999 (95 GiB/s), KiB per connection 9999.9.
constexpr std::array<std::size_t, 6> connection_widths{9, 7, 7, 8, 8, 8};
constexpr std::array<const char*, 6> connection_headings{"open",     "+open/s",  "fail/s",
                                                         "closed/s", "in KiB/s", "KiB/conn"};
// --rate's columns: the generator's lag at p99 so far (ms, as the latencies) and the requests
// the cap held back so far (9 digits).
constexpr std::array<std::size_t, 2> rate_widths{8, 9};
constexpr std::array<const char*, 2> rate_headings{"lag p99", "capped"};
constexpr const char* bar = "\u2502";    // │ between columns
constexpr const char* cross = "\u253c";  // ┼ in the separator
constexpr const char* rule = "\u2500";   // ─

std::string repeat(const char* piece, std::size_t times) {
  std::string text;
  for (std::size_t i = 0; i < times; ++i) {
    text += piece;
  }
  return text;
}

// The codes column: what came back (gRPC codes by name for gRPC calls), then why requests that
// got no status failed, so failures explain themselves and each request is listed once; then
// the responses each --expect check rejected ("check2:40", numbered as the report lists them).
std::string codes_column(const Metrics& total) {
  // A gRPC call's outcome is its gRPC code; its HTTP status (200) says little.
  std::string codes = total.grpc_codes.empty() ? status_codes_text(total.status_codes)
                                               : grpc_codes_text(total.grpc_codes);
  const std::string errors = failures_beside_codes_text(total);
  if (!codes.empty() && !errors.empty()) {
    codes += ';';
  }
  codes += errors;
  for (const auto& [check, count] : total.failed_checks) {
    if (count == 0) continue;
    if (!codes.empty()) codes += ';';
    codes += "check" + std::to_string(check) + ':' + std::to_string(count);
  }
  return codes;
}

/// The last second's connection cells: open, opened, failed, closed by the server, KiB received
/// per second (what --listen counts), KiB each.
std::array<std::string, 6> connection_cells(const Summary& summary) {
  if (summary.per_second.empty()) return {"0", "0", "0", "0", "0", "-"};
  const auto& second = summary.per_second.back();
  const auto open = second.connections_open;
  const auto start = summary.resident_at_start;
  const auto grown = second.resident_bytes > start ? second.resident_bytes - start : 0;
  const auto kib =
      open == 0 || start == 0 || second.resident_bytes == 0
          ? std::string("-")
          : format_fixed(static_cast<double>(grown) / (1024.0 * static_cast<double>(open)), 1);
  return {std::to_string(open),
          std::to_string(second.connections_opened),
          std::to_string(second.connections_failed),
          std::to_string(second.connections_closed_by_server),
          format_fixed(second.received_bytes_per_s / 1024.0, 0),
          kib};
}

}  // namespace

std::string live_header(bool connections, bool rate) {
  std::string heading;
  std::string separator;
  for (std::size_t i = 0; i < widths.size(); ++i) {
    heading += pad_left(headings[i], widths[i]) + bar;
    separator += repeat(rule, widths[i]) + cross;
  }
  for (std::size_t i = 0; rate && i < rate_widths.size(); ++i) {
    heading += pad_left(rate_headings[i], rate_widths[i]) + bar;
    separator += repeat(rule, rate_widths[i]) + cross;
  }
  for (std::size_t i = 0; connections && i < connection_widths.size(); ++i) {
    heading += pad_left(connection_headings[i], connection_widths[i]) + bar;
    separator += repeat(rule, connection_widths[i]) + cross;
  }
  heading += " codes\n";
  separator += repeat(rule, 6) + "\n";
  return heading + separator;
}

std::string live_row(const Summary& summary, bool connections) {
  const Metrics& total = summary.total;
  const Histogram& latency = total.latency;
  const std::array<std::string, 8> cells{
      format_fixed(to_seconds(summary.elapsed), 1) + "s",
      std::to_string(summary.users_running),
      std::to_string(total.succeeded),
      std::to_string(total.failed),
      format_fixed(summary.rps(), 2),
      format_fixed(to_ms(static_cast<double>(latency.max())), 2),
      format_fixed(to_ms(static_cast<double>(latency.min())), 2),
      format_fixed(to_ms(latency.mean()), 2),
  };
  std::string row;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    row += pad_left(cells[i], widths[i]) + bar;
  }
  if (summary.info.rate > 0) {
    const auto lag = static_cast<double>(total.rate.lag.percentile(99));
    row += pad_left(format_fixed(to_ms(lag), 2), rate_widths[0]) + bar;
    row += pad_left(std::to_string(total.rate.capped), rate_widths[1]) + bar;
  }
  if (connections) {
    const auto more = connection_cells(summary);
    for (std::size_t i = 0; i < more.size(); ++i) {
      row += pad_left(more[i], connection_widths[i]) + bar;
    }
  }
  const std::string codes = codes_column(total);
  return codes.empty() ? row + '\n' : row + ' ' + codes + '\n';
}

}  // namespace stampede::report
