// The closing text report: go-stress-testing's result block, then everything ApacheBench prints.
#include "report/text_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "report/capacity_report.hpp"
#include "report/rate_text.hpp"
#include "report/report_format.hpp"
#include "report/shards_text.hpp"
#include "report/stream_text.hpp"
#include "report/threshold_report.hpp"

namespace stampede::report {

using statistics::Histogram;
using statistics::Metrics;
using statistics::RunInfo;
using statistics::StopReason;
using statistics::to_ms;
namespace {

// ab aligns every value at column 24; an empty value leaves no trailing blanks.
std::string line(const std::string& label, const std::string& value) {
  return value.empty() ? label + '\n' : pad_right(label, 24) + value + '\n';
}

std::string ms3(double ns) { return format_fixed(to_ms(ns), 3); }

std::string go_stress_block(const Summary& summary) {
  const Metrics& total = summary.total;
  const Histogram& latency = total.latency;
  std::string text = "*************************  result stat  ****************************\n";
  text += "users: " + std::to_string(summary.info.users) + '\n';
  text += "total requests (completed): " + std::to_string(total.completed()) +
          " elapsed: " + format_fixed(to_seconds(summary.elapsed), 3) +
          " s succeeded: " + std::to_string(total.succeeded) +
          " failed: " + std::to_string(total.failed) + '\n';
  // go-stress-testing truncates these to whole ms; three real decimals are worth keeping.
  for (const int q : {90, 95, 99}) {
    text +=
        "tp" + std::to_string(q) + ": " + ms3(static_cast<double>(latency.percentile(q))) + " ms\n";
  }
  text += "*************************  result end   ****************************\n";
  return text;
}

/// A WebSocket run: messages, not HTTP responses, are what it counts.
bool websocket(const Summary& summary) {
  return summary.info.protocol == model::Protocol::websocket;
}

/// A gRPC run: its bodies are length-prefixed messages.
bool grpc(const Summary& summary) { return model::is_grpc(summary.info.origin.scheme); }

std::string server_block(const Summary& summary) {
  const RunInfo& info = summary.info;
  // The Server header is the server's text, not ours: escaped so it cannot drive the terminal.
  // A WebSocket run reads no Server header: nothing to say rather than an empty line.
  const auto software = printable(summary.total.server_software());
  std::string text =
      websocket(summary) && software.empty() ? "" : line("Server Software:", software);
  text += line("Server Hostname:", printable(info.origin.host));
  text += line("Server Port:", std::to_string(info.origin.port));
  text += '\n';
  text += line("Document Path:", printable(info.path));
  text += line(websocket(summary) ? "Message Length:" : "Document Length:",
               std::to_string(summary.total.document_length()) +
                   (grpc(summary) ? " bytes (with its messages' 5-byte gRPC prefixes)" : " bytes"));
  return text + '\n';
}

std::string stop_line(const Summary& summary) {
  if (summary.stop_reason == StopReason::completed || summary.stop_reason == StopReason::duration) {
    return "";  // -z's end is the run's own: its requests in flight were all counted
  }
  const char* why = summary.stop_reason == StopReason::interrupted ? "interrupted"
                    : summary.stop_reason == StopReason::aborted
                        ? "aborted: a threshold could no longer pass (--abort-on-fail)"
                        : "time limit reached";
  std::string text = std::string(why) + "; " + std::to_string(summary.abandoned) +
                     " in-flight requests abandoned (not counted)";
  // --rate starts users only as they are needed.
  if (summary.users_started < summary.info.users && summary.info.rate == 0) {
    text += "; " + std::to_string(summary.info.users - summary.users_started) + " of " +
            std::to_string(summary.info.users) + " users had not started";
  }
  return line("Stopped early:", text);
}

// ab prints "(Connect: 0, Receive: 0, Length: 0, Exceptions: 0)"; we print our kinds in the same
// place, so the line reads the same whatever failed: every HTTP kind, and WebSocket's own
// (handshake, closed, too_big) only when some occurred, as an HTTP run never has any.
std::string failure_breakdown(const Metrics& total) {
  std::string text = "   (";
  for (const model::ErrorKind kind : model::failure_kinds) {
    const auto count = total.errors_of(kind);
    if (count == 0 && kind > model::ErrorKind::verify) continue;
    if (kind != model::failure_kinds.front()) {
      text += ", ";
    }
    text += std::string(model::to_string(kind)) + ": " + std::to_string(count);
  }
  return text + ")\n";
}

/// A run of long-lived connections (WebSocket): what became of them, on one line.
std::string connections_line(const Summary& summary) {
  const auto& counts = summary.total.long_lived;
  std::string text = std::to_string(counts.opened) + " opened, " +
                     std::to_string(counts.closed_by_server) + " closed by the server, " +
                     std::to_string(counts.failures()) + " failed";
  std::string kinds;
  for (const model::ErrorKind kind : model::failure_kinds) {
    if (const auto n = counts.failed[static_cast<std::size_t>(kind)]; n > 0) {
      kinds += (kinds.empty() ? "" : ", ") + std::string(model::to_string(kind)) + ": " +
               std::to_string(n);
    }
  }
  if (!kinds.empty()) text += " (" + kinds + ")";
  const auto open = counts.opened - std::min(counts.ended, counts.opened);
  text = line("Connections:", text + ", " + std::to_string(open) + " open at the end");
  if (!counts.close_codes.empty()) {  // the server's close frames: its own, or its answers to ours
    text += line("Close codes:", status_codes_text(counts.close_codes));
  }
  // How long opening them took: the start of a long-lived run is its hardest part.
  if (counts.opened > 0) {
    text += line("Last opened:",
                 format_fixed(to_seconds(counts.last_opened), 3) + " seconds after the start");
  }
  return text;
}

/// What the connections speak, when it says more than the URL: some HTTP/2 (h2 by ALPN, h2c),
/// or more than one kind (a server that declined h2). "h2 (3 connections), http/1.1 (1)".
std::string protocols_line(const Metrics& total) {
  const auto& counts = total.negotiated;
  const auto h2 = counts[static_cast<std::size_t>(model::Negotiated::h2)] +
                  counts[static_cast<std::size_t>(model::Negotiated::h2c)];
  const auto kinds = std::count_if(counts.begin() + 1, counts.end(), [](auto n) { return n > 0; });
  if (h2 == 0 && kinds < 2) return "";
  std::string text;
  for (std::size_t i = 1; i < counts.size(); ++i) {  // 0: none
    if (counts[i] == 0) continue;
    text += (text.empty() ? "" : ", ") +
            std::string(model::to_string(static_cast<model::Negotiated>(i))) + " (" +
            std::to_string(counts[i]) + (text.empty() ? " connections)" : ")");
  }
  return line("Protocols:", text);
}

/// -m: how many connections the users shared and how many streams each carried at once.
std::string shared_streams_line(const Metrics& total) {
  return line("Shared connections:", std::to_string(total.connections_opened) +
                                         " opened; streams open at once on one: " +
                                         format_fixed(total.streams.open_mean(), 1) + " mean, " +
                                         std::to_string(total.streams.open_max) + " max");
}

/// --expect-*: each check and the responses it rejected (each under the first it failed).
std::string checks_lines(const Summary& summary) {
  const auto& checks = summary.info.checks;
  if (checks.empty()) return "";
  std::string text = line("Checks failed:", "");
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const auto found = summary.total.failed_checks.find(static_cast<int>(i + 1));
    const auto failed = found == summary.total.failed_checks.end() ? 0 : found->second;
    text +=
        "  " + pad_right(printable(checks[i]), 38) + pad_left(std::to_string(failed), 10) + '\n';
  }
  return text;
}

std::string counts_block(const Summary& summary) {
  const Metrics& total = summary.total;
  std::string concurrency = std::to_string(summary.info.users);
  if (summary.info.rate > 0) {  // a cap: users start only as the schedule needs them
    concurrency += " at most (-c), " + std::to_string(summary.users_started) + " started";
  }
  std::string text = line("Concurrency Level:", concurrency);
  text += line("Time taken for tests:", format_fixed(to_seconds(summary.elapsed), 3) + " seconds");
  text += stop_line(summary);
  if (summary.sharding) text += line("Shards:", shards_text(*summary.sharding));
  text += line("Complete requests:", std::to_string(total.completed()));
  text += line("Failed requests:", std::to_string(total.failed));
  if (total.failed > 0) {
    text += failure_breakdown(total);
  }
  text += checks_lines(summary);
  if (const std::uint64_t non_2xx = non_2xx_count(total.status_codes); non_2xx > 0) {
    text += line("Non-2xx responses:", std::to_string(non_2xx));
  }
  // A WebSocket run has a status only where an upgrade was refused.
  const std::string codes = status_codes_text(total.status_codes);
  if (!websocket(summary) || !codes.empty()) {
    text += line("Status codes:", codes.empty() ? "none" : codes);
  }
  if (!total.grpc_codes.empty())
    text += line("gRPC status codes:", grpc_codes_text(total.grpc_codes));
  // An event-stream run's long-lived units are its streams: stream_text() says what they did.
  if (summary.long_lived() && !summary.info.reads_streams()) text += connections_line(summary);
  text += protocols_line(total);
  if (total.streams.streams > 0) text += shared_streams_line(total);
  if (!websocket(summary) && (summary.info.keep_alive || total.keep_alive_responses > 0)) {
    text += line("Keep-Alive requests:", std::to_string(total.keep_alive_responses));
  }
  // WebSocket: on the connections, the upgrade and each frame's header included.
  const std::string wire = websocket(summary) ? " bytes (upgrades, frames and messages)" : " bytes";
  text += line("Total transferred:", std::to_string(total.bytes_received) + wire);
  if (total.bytes_sent > 0) {
    // Whole requests, headers included (ab prints a similar "Total body sent" for POSTs).
    text += line("Total sent:", std::to_string(total.bytes_sent) + wire);
  }
  text += line(websocket(summary) || grpc(summary) ? "Messages transferred:" : "HTML transferred:",
               std::to_string(total.body_bytes) +
                   (grpc(summary) ? " bytes (with their 5-byte prefixes)" : " bytes"));
  return text;
}

/// ab's "Transfer rate", received, then sent and both when something was sent.
std::string transfer_lines(const Summary& summary) {
  const Metrics& total = summary.total;
  const double seconds = to_seconds(summary.elapsed);
  std::string text;
  const double received = ratio(static_cast<double>(total.bytes_received) / 1024, seconds);
  text += line("Transfer rate:", format_fixed(received, 2) + " [Kbytes/sec] received");
  if (total.bytes_sent > 0) {
    const double sent = ratio(static_cast<double>(total.bytes_sent) / 1024, seconds);
    text += line("", format_fixed(sent, 2) + " kb/s sent");
    text += line("", format_fixed(received + sent, 2) + " kb/s total");
  }
  return text;
}

/// A held run (--hold, --listen) lasts the hold: requests a second over it would say little.
/// What matters is how fast the connections opened, and how long each took.
std::string held_block(const Summary& summary) {
  const auto& counts = summary.total.long_lived;
  const auto& connect = summary.total.connect;
  const double seconds = to_seconds(counts.last_opened);
  std::string text = line("Opened per second:",
                          format_fixed(ratio(static_cast<double>(counts.opened), seconds), 2) +
                              " [#/sec] (mean, from the start to the last opened)");
  if (connect.count() > 0) {
    text += line("Time to open:", ms3(connect.mean()) + " [ms] (mean), " +
                                      ms3(static_cast<double>(connect.percentile(99))) +
                                      " (p99), " + ms3(static_cast<double>(connect.max())) +
                                      (websocket(summary) ? " (max): TCP, TLS for wss, the upgrade"
                                                          : " (max): TCP, TLS for https"));
  }
  return text;
}

std::string rates_block(const Summary& summary) {
  const Metrics& total = summary.total;
  const double seconds = to_seconds(summary.elapsed);
  const auto completed = static_cast<double>(total.completed());
  const auto users = static_cast<double>(summary.info.users);
  if (summary.info.held && summary.long_lived())
    return held_block(summary) + transfer_lines(summary);
  std::string text =
      line("Requests per second:", format_fixed(summary.rps(), 2) + " [#/sec] (mean)");
  // ab's mean is concurrency x time / requests, a closed loop's latency; under --rate, -c is
  // only a cap, so the mean latency itself.
  text += summary.info.rate > 0
              ? line("Time per request:", ms3(total.latency.mean()) + " [ms] (mean, from due)")
              : line("Time per request:",
                     format_fixed(ratio(users * seconds * 1000, completed), 3) + " [ms] (mean)");
  text += line("Time per request:", format_fixed(ratio(seconds * 1000, completed), 3) +
                                        " [ms] (mean, across all concurrent requests)");
  return text + transfer_lines(summary);
}

// One row of "Connection Times (ms)", in milliseconds.
struct PhaseRow {
  double min = 0, mean = 0, sd = 0, median = 0, max = 0;
};

PhaseRow row_of(const Histogram& histogram) {
  return {to_ms(static_cast<double>(histogram.min())), to_ms(histogram.mean()),
          to_ms(histogram.stdev()), to_ms(static_cast<double>(histogram.percentile(50))),
          to_ms(static_cast<double>(histogram.max()))};
}

std::string phase_line(const std::string& label, const PhaseRow& row) {
  return pad_right(label, 12) + pad_left(format_fixed(row.min, 1), 7) + ' ' +
         pad_left(format_fixed(row.mean, 1), 6) + ' ' + pad_left(format_fixed(row.sd, 1), 5) + ' ' +
         pad_left(format_fixed(row.median, 1), 7) + ' ' + pad_left(format_fixed(row.max, 1), 8) +
         '\n';
}

std::string connection_times(const Metrics& total) {
  std::string text = "\nConnection Times (ms)\n";
  text += "                min  mean[+/-sd]  median      max\n";
  text += phase_line("Connect:", row_of(total.connect));
  text += phase_line("Processing:", row_of(total.processing));
  // -m: the wait for a free stream (the server's SETTINGS_MAX_CONCURRENT_STREAMS), part of
  // Total as Connect is.
  if (total.streams.streams > 0) text += phase_line("Queueing:", row_of(total.queueing));
  // --digest: the round trip to the 401 before the answer, part of Total.
  if (total.challenge.count() > 0) text += phase_line("Challenge:", row_of(total.challenge));
  text += phase_line("Waiting:", row_of(total.waiting));
  text += phase_line("Total:", row_of(total.latency));
  return text;
}

std::string percentiles(const Histogram& latency) {
  struct Step {
    double q;
    const char* label;
  };
  constexpr std::array<Step, 10> steps{{{50, "50%"},
                                        {66, "66%"},
                                        {75, "75%"},
                                        {80, "80%"},
                                        {90, "90%"},
                                        {95, "95%"},
                                        {98, "98%"},
                                        {99, "99%"},
                                        {99.9, "99.9%"},
                                        {100, "100%"}}};
  std::string text = "\nPercentage of the requests served within a certain time (ms)\n";
  for (const Step& step : steps) {
    text += pad_left(step.label, 5) + "  " +
            pad_left(ms3(static_cast<double>(latency.percentile(step.q))), 9);
    text += step.q == 100 ? " (longest request)\n" : "\n";
  }
  return text;
}

/// Steps `first` to `first + count`, one line each: how many, how many failed, their latency.
std::string step_rows(const Summary& summary, std::size_t first, std::size_t count) {
  std::string text = "step  requests    failed   mean ms    p50 ms    p99 ms    max ms  request\n";
  for (std::size_t i = first;
       i < first + count && i < summary.info.steps.size() && i < summary.steps.size(); ++i) {
    const Metrics& step = summary.steps[i];
    const Histogram& latency = step.latency;
    text += pad_left(std::to_string(i - first + 1), 4) +
            pad_left(std::to_string(step.completed()), 10) +
            pad_left(std::to_string(step.failed), 10) + pad_left(ms3(latency.mean()), 10) +
            pad_left(ms3(static_cast<double>(latency.percentile(50))), 10) +
            pad_left(ms3(static_cast<double>(latency.percentile(99))), 10) +
            pad_left(ms3(static_cast<double>(latency.max())), 10) + "  " +
            printable(summary.info.steps[i]) + '\n';
  }
  return text;
}

/// A weighted mix: each flow's share of the rounds, as weighed and as sent, then its steps.
std::string flows_table(const Summary& summary) {
  const auto& flows = summary.info.flows;
  std::uint64_t weights = 0;
  std::uint64_t rounds = 0;
  std::vector<std::uint64_t> flow_rounds;
  for (const auto& flow : flows) {
    weights += flow.weight;
    flow_rounds.push_back(summary.rounds_of(flow));
    rounds += flow_rounds.back();
  }
  const auto share = [](std::uint64_t part, std::uint64_t whole) {
    return whole == 0
               ? std::string("-")
               : format_fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) +
                     "%";
  };
  std::string text = "\nFlows (each user picks one by weight, every round):\n";
  text += "flow  weight  weighed    rounds      sent  file\n";
  for (std::size_t i = 0; i < flows.size(); ++i) {
    text += pad_left(std::to_string(i + 1), 4) + pad_left(std::to_string(flows[i].weight), 8) +
            pad_left(share(flows[i].weight, weights), 9) +
            pad_left(std::to_string(flow_rounds[i]), 10) +
            pad_left(share(flow_rounds[i], rounds), 10) + "  " + printable(flows[i].name) + '\n';
  }
  for (std::size_t i = 0; i < flows.size(); ++i) {
    text += "\nSteps of flow " + std::to_string(i + 1) + " (" + printable(flows[i].name) +
            "), in this order:\n" + step_rows(summary, flows[i].first, flows[i].count);
  }
  return text;
}

/// A flow's steps, one line each.
std::string steps_table(const Summary& summary) {
  if (!summary.info.flows.empty()) return flows_table(summary);
  return "\nSteps (each user sends them in this order, every round):\n" +
         step_rows(summary, 0, summary.info.steps.size());
}

}  // namespace

std::string text_report(const Summary& summary) {
  // A blank line first parts the report from the live table above it, as go-stress-testing does.
  std::string text = '\n' + go_stress_block(summary) + '\n';
  text += server_block(summary);
  text += counts_block(summary);
  text += rates_block(summary);
  text += rate_text(summary);
  text += stream_text(summary);
  if (summary.info.steps.size() > 1) text += steps_table(summary);
  if (summary.total.latency.count() == 0) {
    text += "\nNo response arrived: no connection times or percentiles.\n";
  } else {
    text += connection_times(summary.total);
    text += percentiles(summary.total.latency);
  }
  if (summary.capacity) text += capacity_text(*summary.capacity, "this run");
  text += thresholds_text(summary.thresholds);
  return text;
}

}  // namespace stampede::report
