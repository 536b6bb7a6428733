// The machine-readable report: one JSON document per run, fields documented in docs/json-report.md.
#include "report/json_report.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "model/grpc_code.hpp"
#include "report/capacity_report.hpp"
#include "report/report_format.hpp"
#include "report/threshold_report.hpp"

namespace stampede::report {

using statistics::Histogram;
using statistics::Metrics;
using statistics::Second;
using statistics::to_ms;
namespace {

// ordered_json keeps fields in the order written, so the document reads top-down like the text.
using Json = nlohmann::ordered_json;

// Milliseconds to the microsecond, from a value in nanoseconds.
double ms(double ns) { return round_to(to_ms(ns), 3); }
double ms(std::uint64_t ns) { return ms(static_cast<double>(ns)); }

Json codes_json(const std::map<int, std::uint64_t>& codes) {
  Json json = Json::object();
  for (const auto& [code, count] : codes) {
    json[std::to_string(code)] = count;
  }
  return json;
}

/// gRPC calls by code name: {"OK": 998, "UNAVAILABLE": 2}.
Json grpc_codes_json(const std::map<int, std::uint64_t>& codes) {
  Json json = Json::object();
  for (const auto& [code, count] : codes) json[model::grpc_code_name(code)] = count;
  return json;
}

Json errors_json(const Metrics& total) {
  Json json = Json::object();
  for (const model::ErrorKind kind : model::failure_kinds) {
    json[std::string(model::to_string(kind))] = total.errors_of(kind);
  }
  return json;
}

Json latency_json(const Histogram& latency) {
  return {{"min", ms(latency.min())},
          {"mean", ms(latency.mean())},
          {"stdev", ms(latency.stdev())},
          {"max", ms(latency.max())},
          {"p50", ms(latency.percentile(50))},
          {"p90", ms(latency.percentile(90))},
          {"p95", ms(latency.percentile(95))},
          {"p99", ms(latency.percentile(99))},
          {"p999", ms(latency.percentile(99.9))}};
}

Json phase_json(const Histogram& phase) {
  return {{"min", ms(phase.min())},
          {"mean", ms(phase.mean())},
          {"max", ms(phase.max())},
          {"p50", ms(phase.percentile(50))},
          {"p99", ms(phase.percentile(99))}};
}

/// One second of the run; a --rate run's (`rate`) also says the rate asked that second.
Json second_json(const Second& second, bool rate) {
  Json json = {{"elapsed_s", round_to(second.elapsed_s, 3)},
               {"users_running", second.users_running},
               {"succeeded", second.succeeded},
               {"failed", second.failed},
               {"rps", round_to(second.rps, 3)},
               {"latency_ms",
                {{"min", round_to(second.min_ms, 3)},
                 {"mean", round_to(second.mean_ms, 3)},
                 {"max", round_to(second.max_ms, 3)},
                 {"p50", round_to(second.p50_ms, 3)},
                 {"p90", round_to(second.p90_ms, 3)},
                 {"p99", round_to(second.p99_ms, 3)}}},
               {"status_codes", codes_json(second.status_codes)}};
  if (rate) json["due_per_s"] = round_to(second.due_per_s, 3);
  return json;
}

/// The flow of a mix step `step` belongs to, from 1; 0 without a mix.
std::size_t flow_of(const statistics::RunInfo& info, std::size_t step) {
  for (std::size_t i = 0; i < info.flows.size(); ++i) {
    const auto& flow = info.flows[i];
    if (step >= flow.first && step < flow.first + flow.count) return i + 1;
  }
  return 0;
}

/// One object per step of the flow; a run of one request has one step, whose numbers are the
/// totals. With a mix, each names its flow.
Json steps_json(const Summary& summary) {
  Json json = Json::array();
  for (std::size_t i = 0; i < summary.info.steps.size(); ++i) {
    const Metrics& step = summary.steps.empty() ? summary.total : summary.steps.at(i);
    json.push_back(
        {{"step", i + 1},
         {"request", summary.info.steps[i]},
         {"requests",
          {{"total", step.completed()}, {"succeeded", step.succeeded}, {"failed", step.failed}}},
         {"latency_ms", latency_json(step.latency)},
         {"status_codes", codes_json(step.status_codes)},
         {"errors", errors_json(step)}});
    if (!summary.info.flows.empty()) json.back()["flow"] = flow_of(summary.info, i);
  }
  return json;
}

/// A mix's flows: each one's file, weight, steps and rounds sent (its first step's requests).
Json flows_json(const Summary& summary) {
  Json json = Json::array();
  for (std::size_t i = 0; i < summary.info.flows.size(); ++i) {
    const auto& flow = summary.info.flows[i];
    json.push_back({{"flow", i + 1},
                    {"file", flow.name},
                    {"weight", flow.weight},
                    {"first_step", flow.first + 1},
                    {"steps", flow.count},
                    {"rounds", summary.rounds_of(flow)}});
  }
  return json;
}

/// An event-stream run's streams and events: how many, how they ended, and their timing.
Json events_json(const Summary& summary) {
  const auto& events = summary.total.events;
  const auto& streams = summary.total.long_lived;
  Json failed = Json::object();
  for (const model::ErrorKind kind : model::failure_kinds) {
    if (const auto n = streams.failed[static_cast<std::size_t>(kind)]; n > 0) {
      failed[std::string(model::to_string(kind))] = n;
    }
  }
  const auto seconds = to_seconds(summary.elapsed);
  return {
      {"unit", summary.info.stream_unit.empty() ? "event" : summary.info.stream_unit},
      {"received", events.events},
      {"per_s", round_to(ratio(static_cast<double>(events.events), seconds), 3)},
      {"lost", events.lost},
      {"unanswered", events.unanswered},
      {"first_event_ms", latency_json(events.first_event)},
      {"gap_ms", latency_json(events.gap)},
      {"streams",
       {{"opened", streams.opened},
        {"ended_by_server", streams.closed_by_server},
        {"failed", streams.failures()},
        {"failed_by_kind", failed},
        {"open_at_end", streams.opened - std::min(streams.ended, streams.opened)},
        {"bytes_received_mean", round_to(ratio(static_cast<double>(summary.total.bytes_received),
                                               static_cast<double>(streams.opened)),
                                         0)}}}};
}

/// A second of long-lived connections: open at its end, opened, failed, closed in it.
Json connection_second_json(const Second& second) {
  return {{"elapsed_s", round_to(second.elapsed_s, 3)},
          {"open", second.connections_open},
          {"opened", second.connections_opened},
          {"failed", second.connections_failed},
          {"closed_by_server", second.connections_closed_by_server},
          {"received_bytes_per_s", round_to(second.received_bytes_per_s, 0)},
          {"resident_bytes", second.resident_bytes}};
}

/// Connections: how many opened; for long-lived ones (WebSocket) also how they ended and, each
/// second, how many were open and what the generator's memory was.
Json connections_json(const Summary& summary, bool with_seconds) {
  const Metrics& total = summary.total;
  Json json = {{"opened", total.connections_opened}};
  Json protocols = Json::object();                             // by what they speak: {"h2": 4}
  for (std::size_t i = 1; i < total.negotiated.size(); ++i) {  // 0: none
    if (total.negotiated[i] > 0) {
      protocols[std::string(model::to_string(static_cast<model::Negotiated>(i)))] =
          total.negotiated[i];
    }
  }
  json["protocols"] = protocols;
  if (total.streams.streams > 0) {  // -m: the streams the shared connections carried at once
    json["shared_streams"] = {{"streams", total.streams.streams},
                              {"open_mean", round_to(total.streams.open_mean(), 3)},
                              {"open_max", total.streams.open_max}};
  }
  if (!summary.long_lived()) return json;
  const auto& counts = total.long_lived;
  Json failed = Json::object();
  for (const model::ErrorKind kind : model::failure_kinds) {
    if (const auto n = counts.failed[static_cast<std::size_t>(kind)]; n > 0) {
      failed[std::string(model::to_string(kind))] = n;
    }
  }
  json["open_at_end"] = counts.opened - std::min(counts.ended, counts.opened);
  json["last_opened_s"] = round_to(to_seconds(counts.last_opened), 6);
  json["closed_by_server"] = counts.closed_by_server;
  json["close_codes"] = codes_json(counts.close_codes);
  json["failed"] = counts.failures();
  json["failed_by_kind"] = failed;
  json["resident_bytes_at_start"] = summary.resident_at_start;
  if (!with_seconds) return json;
  Json seconds = Json::array();
  for (const Second& second : summary.per_second) seconds.push_back(connection_second_json(second));
  json["per_second"] = seconds;
  return json;
}

/// --rate's figures: the rate asked and started, the cap and what it held back, the lag.
Json rate_json(const Summary& summary) {
  const auto& rate = summary.total.rate;
  return {{"asked", round_to(summary.info.rate, 3)},
          {"started", round_to(summary.achieved_rate(), 3)},
          {"due", rate.due},
          {"scheduled", rate.scheduled},
          {"cap",
           {{"users", summary.info.users},
            {"capped", rate.capped},
            {"capped_starting", rate.capped_starting},
            {"missed", rate.missed}}}};
}

Json server_json(const Summary& summary) {
  return {{"software", summary.total.server_software()},
          {"scheme", summary.info.origin.scheme_name()},
          {"host", summary.info.origin.host},
          {"port", summary.info.origin.port},
          {"path", summary.info.path},
          {"document_length", summary.total.document_length()}};
}

/// --shard: the shards held and not, each one's start (its skew after --start-at) and its end.
Json shards_json(const statistics::Sharding& sharding) {
  Json held = Json::array();
  for (const auto& shard : sharding.shards) {
    held.push_back({{"index", shard.index},
                    {"skew_ms", shard.start_at ? Json(ms(static_cast<double>(
                                                     (shard.started_at - *shard.start_at).count())))
                                               : Json(nullptr)},
                    {"stop_reason", to_string(shard.stop_reason)},
                    {"clock_offset_ms",
                     shard.clock_offset ? Json(ms(static_cast<double>(shard.clock_offset->count())))
                                        : Json(nullptr)}});
  }
  return {{"run", sharding.run},
          {"count", sharding.count},
          {"held", held},
          {"missing", sharding.missing()},
          {"start_spread_ms", ms(static_cast<double>(sharding.start_spread().count()))}};
}

/// The report as a JSON value, with its seconds or without (the dashboard sends them apart).
Json report_json(const Summary& summary, bool with_seconds) {
  const Metrics& total = summary.total;
  Json json;
  json["requests"] = {{"total", total.completed()},
                      {"succeeded", total.succeeded},
                      {"failed", total.failed},
                      {"abandoned", summary.abandoned}};
  json["duration_s"] = round_to(to_seconds(summary.elapsed), 6);
  json["rps"] = round_to(summary.rps(), 3);
  json["users"] = summary.info.users;
  json["users_started"] = summary.users_started;
  json["requests_per_user"] = summary.info.requests_per_user;
  json["threads"] = summary.info.threads;
  json["keep_alive"] = summary.info.keep_alive;
  json["protocol"] = model::protocol_name(summary.info.protocol);
  json["held"] = summary.info.held;
  json["stop_reason"] = to_string(summary.stop_reason);
  if (summary.sharding) json["shards"] = shards_json(*summary.sharding);
  json["latency_ms"] = latency_json(total.latency);
  if (summary.info.rate > 0) {  // latency_ms is then counted from each request's due time
    json["service_time_ms"] = latency_json(total.rate.service_time);
    json["lag_ms"] = {{"p50", ms(total.rate.lag.percentile(50))},
                      {"p99", ms(total.rate.lag.percentile(99))},
                      {"max", ms(total.rate.lag.max())}};
    json["rate"] = rate_json(summary);
  }
  json["phases_ms"] = {{"connect", phase_json(total.connect)},
                       {"processing", phase_json(total.processing)},
                       {"waiting", phase_json(total.waiting)},
                       {"total", phase_json(total.latency)}};
  if (total.streams.streams > 0) json["phases_ms"]["queueing"] = phase_json(total.queueing);
  if (total.challenge.count() > 0) json["phases_ms"]["challenge"] = phase_json(total.challenge);
  json["status_codes"] = codes_json(total.status_codes);
  if (!total.grpc_codes.empty()) json["grpc_status_codes"] = grpc_codes_json(total.grpc_codes);
  json["errors"] = errors_json(total);
  if (!summary.info.checks.empty()) {
    json["checks"] = Json::array();
    for (std::size_t i = 0; i < summary.info.checks.size(); ++i) {
      const auto found = total.failed_checks.find(static_cast<int>(i + 1));
      json["checks"].push_back(
          {{"check", summary.info.checks[i]},
           {"failed", found == total.failed_checks.end() ? 0 : found->second}});
    }
  }
  json["bytes"] = {{"received", total.bytes_received},
                   {"body_received", total.body_bytes},
                   {"sent", total.bytes_sent}};
  json["connections"] = connections_json(summary, with_seconds);
  if (summary.info.reads_streams()) json["events"] = events_json(summary);
  json["keep_alive_requests"] = total.keep_alive_responses;
  json["server"] = server_json(summary);
  json["steps"] = steps_json(summary);
  if (!summary.info.flows.empty()) json["flows"] = flows_json(summary);
  if (summary.capacity) json["capacity"] = capacity_json(*summary.capacity);
  if (!summary.thresholds.empty()) json["thresholds"] = thresholds_json(summary.thresholds);
  if (!with_seconds) return json;
  json["per_second"] = Json::array();
  for (const Second& second : summary.per_second) {
    json["per_second"].push_back(second_json(second, summary.info.rate > 0));
  }
  return json;
}

// What a server sent (its Server header) need not be UTF-8, which JSON requires: bytes that are
// not become U+FFFD instead of an exception that would lose the finished run's report.
std::string dumped(const Json& json, int indent) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

std::string json_report(const Summary& summary) {
  return dumped(report_json(summary, true), 2) + '\n';
}

std::string json_report_without_seconds(const Summary& summary) {
  return dumped(report_json(summary, false), -1);
}

std::vector<std::string> json_seconds(const Summary& summary, std::size_t from) {
  std::vector<std::string> seconds;
  for (std::size_t i = from; i < summary.per_second.size(); ++i) {
    const auto& second = summary.per_second[i];
    Json json = second_json(second, summary.info.rate > 0);
    if (summary.long_lived()) json["connections"] = connection_second_json(second);
    seconds.push_back(dumped(json, -1));
  }
  return seconds;
}

}  // namespace stampede::report
