// Metrics to JSON and back, field by field; enums by name, so a reordered enum reads the same.
#include "report/saved_metrics.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "report/hdr_encoding.hpp"

namespace stampede::report {

using statistics::Histogram;
using statistics::Metrics;

namespace {

/// {name: count} for the non-zero entries of an array indexed by an enum named by `name_of`.
template <std::size_t N, typename Name>
SavedJson named_to_json(const std::array<std::uint64_t, N>& counts, Name name_of) {
  SavedJson json = SavedJson::object();
  for (std::size_t i = 0; i < N; ++i) {
    if (counts[i] > 0) json[std::string(name_of(i))] = counts[i];
  }
  return json;
}

template <std::size_t N, typename Name>
std::array<std::uint64_t, N> named_from_json(const SavedJson& json, Name name_of) {
  std::array<std::uint64_t, N> counts{};
  for (const auto& [key, count] : json.items()) {
    std::size_t i = 0;
    while (i < N && name_of(i) != key) ++i;
    if (i == N) throw std::invalid_argument("an unknown name '" + key + "'");
    counts[i] = count_value(count, key);
  }
  return counts;
}

auto error_name(std::size_t i) { return model::to_string(static_cast<model::ErrorKind>(i)); }
auto negotiated_name(std::size_t i) { return model::to_string(static_cast<model::Negotiated>(i)); }

template <typename T>
SavedJson value_counts_to_json(const statistics::ValueCounts<T>& counts) {
  SavedJson json = SavedJson::array();
  for (const auto& [value, count] : counts.entries()) json.push_back({value, count});
  return json;
}

template <typename T>
T counted_value(const SavedJson& value, std::string_view name) {
  if constexpr (std::is_same_v<T, std::string>) {
    return value.get<std::string>();
  } else {
    return count_value(value, name);
  }
}

template <typename T>
statistics::ValueCounts<T> value_counts_from_json(const SavedJson& json, std::string_view name) {
  statistics::ValueCounts<T> counts;
  for (const auto& entry : json) {
    counts.add(counted_value<T>(entry.at(0), name), count_value(entry.at(1), name));
  }
  return counts;
}

template <typename Counts>
std::uint64_t sum_of(const Counts& counts) {
  unsigned __int128 sum = 0;  // a damaged file's counts may add up past 64 bits
  for (const auto& count : counts) {
    if constexpr (requires { count.second; }) {
      sum += count.second;
    } else {
      sum += count;
    }
  }
  return sum > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(sum);
}

void require(bool holds, const std::string& why) {
  if (!holds) throw std::invalid_argument(why);
}

std::string counted(std::string_view name, std::uint64_t count) {
  return "'" + std::string(name) + "' (" + std::to_string(count) + ")";
}

/// Refuses counts no run makes: the saved counters are derived from one another (Metrics::add),
/// so a file whose totals disagree with its histograms or its breakdowns was edited or damaged.
void check_counts(const Metrics& m) {
  // JSON readers lose whole numbers past 2^53; no run comes near it.
  constexpr std::uint64_t most_requests = std::uint64_t{1} << 53;
  require(m.succeeded <= most_requests && m.failed <= most_requests - m.succeeded,
          counted("succeeded", m.succeeded) + " and " + counted("failed", m.failed) +
              " are more requests than a run makes");
  require(m.errors[0] == 0 && sum_of(m.errors) == m.failed,
          counted("failed", m.failed) + " is not the sum of its 'errors' (" +
              std::to_string(sum_of(m.errors)) + ")");
  const auto whole =
      m.succeeded + m.errors_of(model::ErrorKind::verify) + m.errors_of(model::ErrorKind::capture);
  require(m.latency.count() == whole && m.processing.count() == whole,
          counted("latency", m.latency.count()) + " does not hold the " + std::to_string(whole) +
              " whole exchanges of 'succeeded' and the 'verify' and 'capture' errors");
  require(sum_of(m.status_codes) <= m.completed() && sum_of(m.grpc_codes) <= m.completed(),
          "'status_codes' or 'grpc_codes' count more responses than 'succeeded' + 'failed' (" +
              std::to_string(m.completed()) + ")");
  require(sum_of(m.failed_checks) <= m.errors_of(model::ErrorKind::verify),
          "'failed_checks' count more than the 'verify' errors");
  require(sum_of(m.negotiated) == m.connections_opened && m.connect.count() == m.connections_opened,
          counted("connections_opened", m.connections_opened) +
              " does not match 'negotiated' and 'connect'");
  require(m.rate.lag.count() == m.rate.scheduled && m.rate.scheduled <= m.completed() &&
              m.rate.service_time.count() <= m.rate.scheduled &&
              m.rate.capped_starting <= m.rate.capped,
          "'rate': " + counted("scheduled", m.rate.scheduled) +
              " does not match its 'lag' or the requests");
}

}  // namespace

SavedJson counts_to_json(const std::map<int, std::uint64_t>& counts) {
  SavedJson json = SavedJson::object();
  for (const auto& [key, count] : counts) json[std::to_string(key)] = count;
  return json;
}

std::map<int, std::uint64_t> counts_from_json(const SavedJson& json) {
  std::map<int, std::uint64_t> counts;
  for (const auto& [key, count] : json.items()) counts[number_key(key)] = count_value(count, key);
  return counts;
}

std::string u128_text(unsigned __int128 value) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  } while (value > 0);
  return digits;
}

unsigned __int128 u128_from_text(const std::string& text) {
  constexpr auto most = ~static_cast<unsigned __int128>(0);
  if (text.empty()) throw std::invalid_argument("an empty number");
  unsigned __int128 value = 0;
  for (const char c : text) {
    const auto digit = static_cast<unsigned>(c - '0');
    if (digit > 9 || value > (most - digit) / 10) {
      throw std::invalid_argument("'" + text + "' is not a 128-bit count");
    }
    value = value * 10 + digit;
  }
  return value;
}

SavedJson histogram_to_json(const Histogram& histogram) {
  if (histogram.count() == 0) return nullptr;
  const auto exact = histogram.exact();
  return {{"count", histogram.count()},
          {"min", exact.min},
          {"max", exact.max},
          {"sum", u128_text(exact.sum)},
          {"sum_squares", u128_text(exact.sum_squares)},
          {"hdr", hdr_base64(histogram)}};
}

Histogram histogram_from_json(const SavedJson& json) {
  if (json.is_null()) return {};
  const Histogram::Exact exact{count_at(json, "min"), count_at(json, "max"),
                               u128_from_text(json.at("sum").get<std::string>()),
                               u128_from_text(json.at("sum_squares").get<std::string>())};
  const auto counts = hdr_counts(json.at("hdr").get<std::string>());
  Histogram histogram = Histogram::from_counts(counts, exact);
  if (histogram.count() != count_at(json, "count")) {
    throw std::invalid_argument("a histogram whose counts do not add up to its count");
  }
  return histogram;
}

SavedJson metrics_to_json(const Metrics& m) {
  const auto& lived = m.long_lived;
  return {
      {"succeeded", m.succeeded},
      {"failed", m.failed},
      {"errors", named_to_json(m.errors, error_name)},
      {"status_codes", counts_to_json(m.status_codes)},
      {"failed_checks", counts_to_json(m.failed_checks)},
      {"grpc_codes", counts_to_json(m.grpc_codes)},
      {"latency", histogram_to_json(m.latency)},
      {"connect", histogram_to_json(m.connect)},
      {"processing", histogram_to_json(m.processing)},
      {"waiting", histogram_to_json(m.waiting)},
      {"queueing", histogram_to_json(m.queueing)},
      {"challenge", histogram_to_json(m.challenge)},
      {"bytes_received", m.bytes_received},
      {"body_bytes", m.body_bytes},
      {"bytes_sent", m.bytes_sent},
      {"connections_opened", m.connections_opened},
      {"negotiated", named_to_json(m.negotiated, negotiated_name)},
      {"keep_alive_responses", m.keep_alive_responses},
      {"servers", value_counts_to_json(m.servers)},
      {"document_lengths", value_counts_to_json(m.document_lengths)},
      {"long_lived",
       {{"opened", lived.opened},
        {"last_opened_ns", lived.last_opened.count()},
        {"ended", lived.ended},
        {"closed_by_server", lived.closed_by_server},
        {"failed", named_to_json(lived.failed, error_name)},
        {"close_codes", counts_to_json(lived.close_codes)}}},
      {"events",
       {{"first_event", histogram_to_json(m.events.first_event)},
        {"gap", histogram_to_json(m.events.gap)},
        {"events", m.events.events},
        {"lost", m.events.lost},
        {"unanswered", m.events.unanswered}}},
      {"streams",
       {{"streams", m.streams.streams},
        {"open_sum", m.streams.open_sum},
        {"open_max", m.streams.open_max}}},
      {"rate",
       {{"due", m.rate.due},
        {"scheduled", m.rate.scheduled},
        {"service_time", histogram_to_json(m.rate.service_time)},
        {"lag", histogram_to_json(m.rate.lag)},
        {"capped", m.rate.capped},
        {"capped_starting", m.rate.capped_starting},
        {"missed", m.rate.missed}}},
  };
}

Metrics metrics_from_json(const SavedJson& json) {
  Metrics m;
  m.succeeded = count_at(json, "succeeded");
  m.failed = count_at(json, "failed");
  m.errors = named_from_json<model::error_kind_count>(json.at("errors"), error_name);
  m.status_codes = counts_from_json(json.at("status_codes"));
  m.failed_checks = counts_from_json(json.at("failed_checks"));
  m.grpc_codes = counts_from_json(json.at("grpc_codes"));
  m.latency = histogram_from_json(json.at("latency"));
  m.connect = histogram_from_json(json.at("connect"));
  m.processing = histogram_from_json(json.at("processing"));
  m.waiting = histogram_from_json(json.at("waiting"));
  m.queueing = histogram_from_json(json.at("queueing"));
  // Saved before --digest's round trip was kept apart: none answered.
  if (json.contains("challenge")) m.challenge = histogram_from_json(json.at("challenge"));
  m.bytes_received = count_at(json, "bytes_received");
  m.body_bytes = count_at(json, "body_bytes");
  m.bytes_sent = count_at(json, "bytes_sent");
  m.connections_opened = count_at(json, "connections_opened");
  m.negotiated = named_from_json<model::negotiated_count>(json.at("negotiated"), negotiated_name);
  m.keep_alive_responses = count_at(json, "keep_alive_responses");
  m.servers = value_counts_from_json<std::string>(json.at("servers"), "servers");
  m.document_lengths =
      value_counts_from_json<std::uint64_t>(json.at("document_lengths"), "document_lengths");
  const auto& lived = json.at("long_lived");
  m.long_lived.opened = count_at(lived, "opened");
  m.long_lived.last_opened =
      std::chrono::nanoseconds(count_at<std::int64_t>(lived, "last_opened_ns"));
  m.long_lived.ended = count_at(lived, "ended");
  m.long_lived.closed_by_server = count_at(lived, "closed_by_server");
  m.long_lived.failed = named_from_json<model::error_kind_count>(lived.at("failed"), error_name);
  // Not in runs saved before they were counted.
  if (lived.contains("close_codes"))
    m.long_lived.close_codes = counts_from_json(lived.at("close_codes"));
  if (json.contains("events")) {  // not in runs saved before event streams were measured
    const auto& events = json.at("events");
    m.events.first_event = histogram_from_json(events.at("first_event"));
    m.events.gap = histogram_from_json(events.at("gap"));
    m.events.events = count_at(events, "events");
    m.events.lost = count_at(events, "lost");
    // Not in runs saved before it was counted.
    if (events.contains("unanswered")) m.events.unanswered = count_at(events, "unanswered");
  }
  const auto& streams = json.at("streams");
  m.streams = {count_at(streams, "streams"), count_at(streams, "open_sum"),
               count_at(streams, "open_max")};
  const auto& rate = json.at("rate");
  // Not in runs saved before it was counted.
  m.rate.due = rate.contains("due") ? count_at(rate, "due") : 0;
  m.rate.scheduled = count_at(rate, "scheduled");
  m.rate.service_time = histogram_from_json(rate.at("service_time"));
  m.rate.lag = histogram_from_json(rate.at("lag"));
  m.rate.capped = count_at(rate, "capped");
  // Not in runs saved before it was counted.
  m.rate.capped_starting = rate.contains("capped_starting") ? count_at(rate, "capped_starting") : 0;
  m.rate.missed = count_at(rate, "missed");
  check_counts(m);
  return m;
}

}  // namespace stampede::report
