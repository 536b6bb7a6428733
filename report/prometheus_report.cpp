// prometheus_text(): counters and gauges from the Summary, the latency histogram cut into `le`
// buckets (Prometheus's own client libraries' default bounds, 5 ms to 10 s, with finer ones
// below: a load test's latencies are often under a millisecond).
#include "report/prometheus_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "report/report_format.hpp"

namespace stampede::report {
namespace {

constexpr std::array<double, 18> bounds_s{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                          0.01,   0.025,   0.05,   0.075, 0.1,    0.25,
                                          0.5,    0.75,    1,      2.5,   5,      10};

std::string number(double value) {
  char text[32];
  (void)std::snprintf(text, sizeof text, "%.9g", finite_or_zero(value));
  return text;
}

/// `# HELP` and `# TYPE` lines of a metric.
std::string header(const std::string& name, const char* type, const char* help) {
  return "# HELP " + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
}

std::string sample(const std::string& name, const std::string& labels, const std::string& value) {
  return name + (labels.empty() ? "" : '{' + labels + '}') + ' ' + value + '\n';
}

/// Counts exactly, however large (a double's %g would round past 9 digits).
std::string count(std::uint64_t value) { return std::to_string(value); }

/// A label value: backslash, double quote and newline escaped, as the format requires.
std::string label_value(std::string_view value) {
  std::string text = "\"";
  for (const char c : value) {
    if (c == '\\' || c == '"') text += '\\';
    text += c == '\n' ? 'n' : c;
  }
  return text + '"';
}

std::string counters(const statistics::Summary& s) {
  const auto& total = s.total;
  std::string text = header("stampede_requests_total", "counter",
                            "Requests completed, by outcome (abandoned: under way at a stop).");
  text += sample("stampede_requests_total", "outcome=\"succeeded\"", count(total.succeeded));
  text += sample("stampede_requests_total", "outcome=\"failed\"", count(total.failed));
  text += sample("stampede_requests_total", "outcome=\"abandoned\"", count(s.abandoned));
  text += header("stampede_responses_total", "counter", "Whole responses, by HTTP status.");
  for (const auto& [code, responses] : total.status_codes) {
    text += sample("stampede_responses_total", "status=" + label_value(std::to_string(code)),
                   count(responses));
  }
  text += header("stampede_errors_total", "counter", "Failed requests, by kind.");
  for (const model::ErrorKind kind : model::failure_kinds) {
    text += sample("stampede_errors_total", "kind=" + label_value(model::to_string(kind)),
                   count(total.errors_of(kind)));
  }
  if (!s.info.checks.empty()) {
    text += header("stampede_failed_checks_total", "counter",
                   "Responses rejected, by the first --expect check they failed.");
    for (std::size_t i = 0; i < s.info.checks.size(); ++i) {
      const auto found = total.failed_checks.find(static_cast<int>(i + 1));
      text += sample("stampede_failed_checks_total", "check=" + label_value(s.info.checks[i]),
                     count(found == total.failed_checks.end() ? 0 : found->second));
    }
  }
  text += header("stampede_received_bytes_total", "counter", "Bytes received, headers and bodies.");
  text += sample("stampede_received_bytes_total", "", count(total.bytes_received));
  text += header("stampede_sent_bytes_total", "counter", "Bytes sent.");
  text += sample("stampede_sent_bytes_total", "", count(total.bytes_sent));
  text += header("stampede_connections_opened_total", "counter", "Connections opened.");
  text += sample("stampede_connections_opened_total", "", count(total.connections_opened));
  return text;
}

std::string gauges(const statistics::Summary& s) {
  const auto& lived = s.total.long_lived;
  std::string text = header("stampede_users_running", "gauge", "Virtual users running.");
  text += sample("stampede_users_running", "", count(s.users_running));
  text += header("stampede_requests_in_flight", "gauge",
                 "Requests under way at the last second's end.");
  text += sample("stampede_requests_in_flight", "", count(s.in_flight));
  text += header("stampede_connections_open", "gauge",
                 "Long-lived connections (WebSocket, held HTTP/2) or event streams open.");
  text += sample("stampede_connections_open", "",
                 count(lived.opened - std::min(lived.ended, lived.opened)));
  text += header("stampede_elapsed_seconds", "gauge", "Time since the run started.");
  text += sample("stampede_elapsed_seconds", "", number(to_seconds(s.elapsed)));
  return text;
}

std::string histogram(const std::string& name, const char* help,
                      const statistics::Histogram& latency) {
  std::string text = header(name, "histogram", help);
  for (const double bound : bounds_s) {
    const auto ns = static_cast<std::uint64_t>(std::llround(bound * 1e9));
    text += sample(name + "_bucket", "le=" + label_value(number(bound)),
                   count(latency.count_at_most(ns)));
  }
  text += sample(name + "_bucket", "le=\"+Inf\"", count(latency.count()));
  text += sample(name + "_sum", "",
                 number(latency.mean() * static_cast<double>(latency.count()) / 1e9));
  text += sample(name + "_count", "", count(latency.count()));
  return text;
}

/// An event-stream run's (--sse): the events and those reconnects lost, the time to each
/// stream's first event and the gaps between events.
std::string events(const statistics::Summary& s) {
  const auto& events = s.total.events;
  std::string text =
      header("stampede_events_total", "counter", "Events of event streams received.");
  text += sample("stampede_events_total", "", count(events.events));
  text += header("stampede_events_lost_total", "counter",
                 "Events that reconnects skipped, by the streams' ids.");
  text += sample("stampede_events_lost_total", "", count(events.lost));
  text +=
      header("stampede_events_unanswered_total", "counter",
             "Messages a client-streaming call sent, on calls that ended without their answer.");
  text += sample("stampede_events_unanswered_total", "", count(events.unanswered));
  text +=
      histogram("stampede_first_event_seconds",
                "A stream's request (connect included) to its first event.", events.first_event);
  text += histogram("stampede_event_gap_seconds", "A stream's event to its next.", events.gap);
  return text;
}

}  // namespace

std::string prometheus_text(const statistics::Summary& summary) {
  return counters(summary) + gauges(summary) +
         histogram("stampede_request_duration_seconds",
                   "Exchange time of the requests that got a whole response.",
                   summary.total.latency) +
         (summary.info.reads_streams() ? events(summary) : "");
}

}  // namespace stampede::report
