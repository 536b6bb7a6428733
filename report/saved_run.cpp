// The saved-run file: a header naming the format and its version, where the run came from, and
// the Summary field by field (saved_metrics.hpp for the counters and histograms).
#include "report/saved_run.hpp"

#include <array>
#include <optional>
#include <string>

#include "model/version.hpp"
#include "report/saved_metrics.hpp"

namespace stampede::report {

using statistics::RunInfo;
using statistics::Second;
using statistics::Summary;

namespace {

constexpr std::string_view format_name = "stampede-run";

using Clock = std::chrono::system_clock;

std::int64_t since_epoch_ns(Clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
}

Clock::time_point from_epoch_ns(std::int64_t ns) {
  return Clock::time_point(
      std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(ns)));
}

model::Scheme scheme_named(const std::string& name) {
  using model::Scheme;
  for (const auto scheme :
       {Scheme::http, Scheme::https, Scheme::ws, Scheme::wss, Scheme::grpc, Scheme::grpcs}) {
    if (name == model::Origin{scheme, "", 0}.scheme_name()) return scheme;
  }
  throw std::invalid_argument("an unknown scheme '" + name + "'");
}

statistics::StopReason stop_reason_named(const std::string& name) {
  using statistics::StopReason;
  for (const auto reason : {StopReason::completed, StopReason::interrupted, StopReason::time_limit,
                            StopReason::duration, StopReason::aborted}) {
    if (name == statistics::to_string(reason)) return reason;
  }
  throw std::invalid_argument("an unknown stop reason '" + name + "'");
}

SavedJson flows_to_json(const std::vector<model::FlowShare>& flows) {
  SavedJson json = SavedJson::array();
  for (const auto& flow : flows) {
    json.push_back({{"name", flow.name},
                    {"first", flow.first},
                    {"count", flow.count},
                    {"weight", flow.weight}});
  }
  return json;
}

std::vector<model::FlowShare> flows_from_json(const SavedJson& json) {
  std::vector<model::FlowShare> flows;
  for (const auto& flow : json) {
    flows.push_back({flow.at("name").get<std::string>(), count_at<std::size_t>(flow, "first"),
                     count_at<std::size_t>(flow, "count"), count_at(flow, "weight")});
  }
  return flows;
}

SavedJson info_to_json(const RunInfo& info) {
  return {{"scheme", info.origin.scheme_name()},
          {"host", info.origin.host},
          {"port", info.origin.port},
          {"path", info.path},
          {"users", info.users},
          {"requests_per_user", info.requests_per_user},
          {"threads", info.threads},
          {"keep_alive", info.keep_alive},
          {"steps", info.steps},
          {"flows", flows_to_json(info.flows)},
          {"rate", info.rate},
          {"window_ns", info.window.count()},
          {"rate_moves", info.rate_moves},
          {"checks", info.checks},
          {"latency_per_second", info.latency_per_second},
          {"started_at_ns", since_epoch_ns(info.started_at)},
          {"protocol", model::protocol_name(info.protocol)},
          {"held", info.held},
          {"stream_unit", info.stream_unit}};
}

RunInfo info_from_json(const SavedJson& json) {
  RunInfo info;
  info.origin = {scheme_named(json.at("scheme").get<std::string>()),
                 json.at("host").get<std::string>(), count_at<unsigned short>(json, "port")};
  info.path = json.at("path").get<std::string>();
  info.users = count_at(json, "users");
  info.requests_per_user = count_at(json, "requests_per_user");
  info.threads = count_at<unsigned>(json, "threads");
  info.keep_alive = json.at("keep_alive").get<bool>();
  info.steps = json.at("steps").get<std::vector<std::string>>();
  if (json.contains("flows")) info.flows = flows_from_json(json.at("flows"));  // since mixes
  info.rate = number_at(json, "rate");
  info.window = std::chrono::nanoseconds(count_at<std::int64_t>(json, "window_ns"));
  info.rate_moves = json.at("rate_moves").get<bool>();
  info.checks = json.at("checks").get<std::vector<std::string>>();
  info.latency_per_second = json.at("latency_per_second").get<bool>();
  info.started_at = from_epoch_ns(integer_at(json, "started_at_ns"));
  // Runs saved before these were kept: HTTP/1.1 and not held, as their reports read.
  if (json.contains("protocol")) {
    info.protocol = model::protocol_named(json.at("protocol").get<std::string>());
  }
  if (json.contains("held")) info.held = json.at("held").get<bool>();
  if (json.contains("stream_unit")) {
    info.stream_unit = json.at("stream_unit").get<std::string>();
  } else if (json.value("event_stream", false)) {  // saved before --stream
    info.stream_unit = "event";
  }
  return info;
}

SavedJson second_to_json(const Second& s) {
  return {{"elapsed_s", s.elapsed_s},
          {"users_running", s.users_running},
          {"succeeded", s.succeeded},
          {"failed", s.failed},
          {"rps", s.rps},
          {"due_per_s", s.due_per_s},
          {"min_ms", s.min_ms},
          {"mean_ms", s.mean_ms},
          {"max_ms", s.max_ms},
          {"p50_ms", s.p50_ms},
          {"p90_ms", s.p90_ms},
          {"p99_ms", s.p99_ms},
          {"status_codes", counts_to_json(s.status_codes)},
          {"connections_open", s.connections_open},
          {"connections_opened", s.connections_opened},
          {"connections_failed", s.connections_failed},
          {"connections_closed_by_server", s.connections_closed_by_server},
          {"received_bytes_per_s", s.received_bytes_per_s},
          {"resident_bytes", s.resident_bytes},
          {"latency", histogram_to_json(s.latency)}};
}

Second second_from_json(const SavedJson& json) {
  Second s;
  s.elapsed_s = number_at(json, "elapsed_s");
  s.users_running = count_at(json, "users_running");
  s.succeeded = count_at(json, "succeeded");
  s.failed = count_at(json, "failed");
  s.rps = number_at(json, "rps");
  // Not in runs saved before it was kept.
  s.due_per_s = json.contains("due_per_s") ? number_at(json, "due_per_s") : 0.0;
  s.min_ms = number_at(json, "min_ms");
  s.mean_ms = number_at(json, "mean_ms");
  s.max_ms = number_at(json, "max_ms");
  // Not in the first files of version 1.
  s.p50_ms = json.contains("p50_ms") ? number_at(json, "p50_ms") : 0.0;
  s.p90_ms = json.contains("p90_ms") ? number_at(json, "p90_ms") : 0.0;
  s.p99_ms = number_at(json, "p99_ms");
  s.status_codes = counts_from_json(json.at("status_codes"));
  s.connections_open = count_at(json, "connections_open");
  s.connections_opened = count_at(json, "connections_opened");
  s.connections_failed = count_at(json, "connections_failed");
  s.connections_closed_by_server = count_at(json, "connections_closed_by_server");
  s.received_bytes_per_s = number_at(json, "received_bytes_per_s");
  s.resident_bytes = count_at(json, "resident_bytes");
  s.latency = histogram_from_json(json.at("latency"));
  return s;
}

SavedJson sharding_to_json(const std::optional<statistics::Sharding>& sharding) {
  if (!sharding) return nullptr;
  SavedJson shards = SavedJson::array();
  for (const auto& shard : sharding->shards) {
    shards.push_back(
        {{"index", shard.index},
         {"started_at_ns", since_epoch_ns(shard.started_at)},
         {"start_at_ns",
          shard.start_at ? SavedJson(since_epoch_ns(*shard.start_at)) : SavedJson(nullptr)},
         {"stop_reason", statistics::to_string(shard.stop_reason)},
         {"clock_offset_ns",
          shard.clock_offset ? SavedJson(shard.clock_offset->count()) : SavedJson(nullptr)}});
  }
  return {{"run", sharding->run},
          {"count", sharding->count},
          {"shards", shards},
          {"plan", sharding->plan}};
}

/// A shard told when to start (--told-at) has its clock offset; runs saved before it, none.
std::optional<std::chrono::nanoseconds> clock_offset_of(const SavedJson& shard) {
  if (!shard.contains("clock_offset_ns") || shard.at("clock_offset_ns").is_null()) return {};
  return std::chrono::nanoseconds(integer_at(shard, "clock_offset_ns"));
}

/// Runs saved before --shard have none.
std::optional<statistics::Sharding> sharding_from_json(const SavedJson& run) {
  if (!run.contains("sharding") || run.at("sharding").is_null()) return std::nullopt;
  const auto& json = run.at("sharding");
  // "plan": not in files saved before shards of other flags were refused.
  statistics::Sharding sharding{json.at("run").get<std::string>(),
                                count_at<unsigned>(json, "count"),
                                {},
                                json.value("plan", std::string())};
  for (const auto& shard : json.at("shards")) {
    const auto& start_at = shard.at("start_at_ns");
    sharding.shards.push_back(
        {count_at<unsigned>(shard, "index"), from_epoch_ns(integer_at(shard, "started_at_ns")),
         start_at.is_null() ? std::nullopt
                            : std::optional(from_epoch_ns(integer_at(shard, "start_at_ns"))),
         stop_reason_named(shard.at("stop_reason").get<std::string>()), clock_offset_of(shard)});
  }
  return sharding;
}

SavedJson summary_to_json(const Summary& summary) {
  SavedJson steps = SavedJson::array();
  for (const auto& step : summary.steps) steps.push_back(metrics_to_json(step));
  SavedJson seconds = SavedJson::array();
  for (const auto& second : summary.per_second) seconds.push_back(second_to_json(second));
  SavedJson thresholds = SavedJson::array();
  for (const auto& verdict : summary.thresholds) {
    thresholds.push_back({{"text", verdict.text},
                          {"measured", verdict.measured},
                          {"unit", verdict.unit},
                          {"passed", verdict.passed}});
  }
  return {{"info", info_to_json(summary.info)},
          {"elapsed_ns", summary.elapsed.count()},
          {"stop_reason", statistics::to_string(summary.stop_reason)},
          {"users_running", summary.users_running},
          {"users_started", summary.users_started},
          {"abandoned", summary.abandoned},
          {"resident_at_start", summary.resident_at_start},
          {"thresholds", thresholds},
          {"total", metrics_to_json(summary.total)},
          {"steps", steps},
          {"per_second", seconds},
          {"sharding", sharding_to_json(summary.sharding)}};
}

Summary summary_from_json(const SavedJson& json) {
  Summary summary;
  summary.info = info_from_json(json.at("info"));
  summary.elapsed = std::chrono::nanoseconds(count_at<std::int64_t>(json, "elapsed_ns"));
  summary.stop_reason = stop_reason_named(json.at("stop_reason").get<std::string>());
  summary.users_running = count_at(json, "users_running");
  summary.users_started = count_at(json, "users_started");
  summary.abandoned = count_at(json, "abandoned");
  summary.resident_at_start = count_at(json, "resident_at_start");
  for (const auto& verdict : json.at("thresholds")) {
    summary.thresholds.push_back(
        {verdict.at("text").get<std::string>(), number_at(verdict, "measured"),
         verdict.at("unit").get<std::string>(), verdict.at("passed").get<bool>()});
  }
  summary.total = metrics_from_json(json.at("total"));
  for (const auto& step : json.at("steps")) summary.steps.push_back(metrics_from_json(step));
  for (const auto& second : json.at("per_second")) {
    summary.per_second.push_back(second_from_json(second));
  }
  summary.sharding = sharding_from_json(json);
  return summary;
}

/// Refuses what is not a saved run, or is one of a newer version, before reading any field.
void check_header(const SavedJson& json) {
  if (!json.is_object() || !json.contains("format") || json["format"] != format_name) {
    throw SavedRunError(R"(not a saved stampede run (no "format": "stampede-run"))");
  }
  const auto version = json.contains("version") ? json["version"] : SavedJson();
  if (!version.is_number_unsigned() || version.get<std::uint64_t>() < 1) {
    throw SavedRunError("a saved run without a valid format version");
  }
  if (version.get<std::uint64_t>() > saved_run_version) {
    throw SavedRunError("a saved run of format version " + version.dump() +
                        ", newer than this stampede reads (" + std::to_string(saved_run_version) +
                        "): use a newer stampede");
  }
}

}  // namespace

std::string saved_run_text(const SavedRun& run) {
  SavedJson sources = SavedJson::array();
  for (const auto& source : run.sources) {
    sources.push_back({{"arguments", source.arguments},
                       {"stampede", source.stampede_version},
                       {"started_at_ns", since_epoch_ns(source.started_at)}});
  }
  const SavedJson json{{"format", format_name},
                       {"version", saved_run_version},
                       {"stampede", model::version},
                       {"sources", sources},
                       {"run", summary_to_json(run.summary)}};
  return json.dump() + "\n";
}

SavedRun read_saved_run(std::string_view text) {
  const auto json = SavedJson::parse(text, nullptr, false);
  if (json.is_discarded()) throw SavedRunError("not a saved stampede run (not JSON)");
  check_header(json);
  try {
    SavedRun run;
    for (const auto& source : json.at("sources")) {
      run.sources.push_back({source.at("arguments").get<std::vector<std::string>>(),
                             source.at("stampede").get<std::string>(),
                             from_epoch_ns(integer_at(source, "started_at_ns"))});
    }
    run.summary = summary_from_json(json.at("run"));
    return run;
  } catch (const nlohmann::json::exception& error) {
    throw SavedRunError(std::string("a damaged saved run: ") + error.what());
  } catch (const std::logic_error& error) {  // std::invalid_argument, std::out_of_range
    throw SavedRunError(std::string("a damaged saved run: ") + error.what());
  }
}

}  // namespace stampede::report
