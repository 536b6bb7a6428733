// csv_report(), csv_sweep(), percentiles_csv(): numbers only, a fixed column order, one header.
#include "report/csv_report.hpp"

#include "report/report_format.hpp"

namespace stampede::report {

namespace {

/// A URL in a CSV field: quoted when it holds a comma or a quote, quotes doubled (RFC 4180).
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

}  // namespace

std::string csv_report(const statistics::Summary& summary) {
  // A run over long-lived connections or streams (whose events are its requests) also says
  // what became of them each second, as the live row does.
  const bool connections = summary.long_lived() || summary.info.reads_streams();
  std::string text =
      "elapsed_s,users,succeeded,failed,rps,min_ms,mean_ms,p99_ms,max_ms,received_bytes_per_s,"
      "status_codes";
  text += connections ? ",connections_open,connections_opened,connections_failed,"
                        "connections_closed_by_server\n"
                      : "\n";
  for (const auto& s : summary.per_second) {
    text += format_fixed(s.elapsed_s, 3) + ',' + std::to_string(s.users_running) + ',' +
            std::to_string(s.succeeded) + ',' + std::to_string(s.failed) + ',' +
            format_fixed(s.rps, 3) + ',' + format_fixed(s.min_ms, 3) + ',' +
            format_fixed(s.mean_ms, 3) + ',' + format_fixed(s.p99_ms, 3) + ',' +
            format_fixed(s.max_ms, 3) + ',' + format_fixed(s.received_bytes_per_s, 0) + ',' +
            status_codes_text(s.status_codes);
    if (connections) {
      text += ',' + std::to_string(s.connections_open) + ',' +
              std::to_string(s.connections_opened) + ',' + std::to_string(s.connections_failed) +
              ',' + std::to_string(s.connections_closed_by_server);
    }
    text += '\n';
  }
  return text;
}

std::string csv_sweep(const server::sweep::SweepResult& sweep) {
  std::string text = std::string("url,") + (sweep.by_rate ? "rate" : "users") +
                     ",qps,mean_ms,p50_ms,p90_ms,p99_ms,error_share,time_per_request_ms,"
                     "requests,knee\n";
  for (const auto& target : sweep.targets) {
    for (std::size_t i = 0; i < target.steps.size(); ++i) {
      const auto& s = target.steps[i];
      text += field(target.url) + ',' + format_fixed(s.level, sweep.by_rate ? 3 : 0) + ',' +
              format_fixed(s.qps, 3) + ',' + format_fixed(s.mean_ms, 3) + ',' +
              format_fixed(s.p50_ms, 3) + ',' + format_fixed(s.p90_ms, 3) + ',' +
              format_fixed(s.p99_ms, 3) + ',' + format_fixed(s.error_share, 6) + ',' +
              format_fixed(s.time_per_request_ms, 3) + ',' + std::to_string(s.requests) + ',' +
              (target.knee.step == i    ? "knee"
               : target.knee.broke == i ? "broke"
                                        : "") +
              '\n';
    }
  }
  return text;
}

std::string percentiles_csv(const statistics::Summary& summary) {
  const auto& latency = summary.total.latency;
  std::string text = "Percentage served,Time in ms\n";
  for (int percent = 0; percent < 100; ++percent) {
    const auto ns = percent == 0 ? latency.min() : latency.percentile(percent);
    text += std::to_string(percent) + ',' +
            format_fixed(statistics::to_ms(static_cast<double>(ns)), 3) + '\n';
  }
  return text;
}

}  // namespace stampede::report
