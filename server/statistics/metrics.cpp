// Metrics: counting one request and summing stretches of a run in any order.
#include "server/statistics/metrics.hpp"

#include <cstddef>
#include <utility>

namespace stampede::statistics {
namespace {

std::uint64_t ns(std::chrono::nanoseconds duration) {
  return duration.count() < 0 ? 0 : static_cast<std::uint64_t>(duration.count());
}

}  // namespace

void Metrics::add(const model::Result& result) {
  if (result.ok()) {
    // A message a client-streaming call sent has no body: the call's answer is its document.
    if (!result.sent_only) document_lengths.add(result.body_bytes);
    ++succeeded;
  } else {
    ++failed;
    ++errors[static_cast<std::size_t>(result.error)];  // errors[none] stays 0
    if (result.failed_check > 0) ++failed_checks[result.failed_check];
  }
  // Only whole responses count: a status line followed by a reset is a read failure, not a
  // response. A rejected response still made a whole exchange; a refused upgrade has a status.
  if (model::comes_with_status(result.error) && result.status != 0) ++status_codes[result.status];
  // A call that failed as an exchange (a late answer is a timeout) has no code to count.
  if (result.grpc_status >= 0 && model::comes_with_status(result.error)) {
    ++grpc_codes[result.grpc_status];
  }
  const bool whole = model::whole_exchange(result.error);
  if (whole) {
    latency.record(ns(result.latency));
    // ab's Processing is the exchange's own: under --rate, the service time.
    processing.record(ns((result.scheduled ? result.service : result.latency) - result.connect));
    note_server(result.server);
  }
  if (result.scheduled) {
    ++rate.scheduled;
    rate.lag.record(ns(result.lag));
    if (whole) rate.service_time.record(ns(result.service));
  }
  if (result.new_connection) {
    connect.record(ns(result.connect));
  }
  if (result.waiting.count() > 0) {
    waiting.record(ns(result.waiting));
  }
  if (result.challenge.count() > 0) challenge.record(ns(result.challenge));
  if (result.streams_open > 0) {
    queueing.record(ns(result.queueing));
    streams.add(result.streams_open);
  }
  events.add(result);
  bytes_received += result.bytes_received;
  body_bytes += result.body_bytes;
  bytes_sent += result.bytes_sent;
  connections_opened += result.new_connection ? 1 : 0;
  if (result.new_connection) ++negotiated[static_cast<std::size_t>(result.negotiated)];
  keep_alive_responses += result.keep_alive ? 1 : 0;
}

void Metrics::add_connection(const model::ExchangeRecord& opened, std::chrono::nanoseconds at) {
  connect.record(ns(opened.connect));
  ++connections_opened;
  ++negotiated[static_cast<std::size_t>(opened.negotiated)];
  long_lived.open(at);
}

void Metrics::note_server(std::string_view server) {
  if (!server.empty()) servers.add(server);
}

void Metrics::merge(const Metrics& other) {
  servers.merge(other.servers);
  document_lengths.merge(other.document_lengths);
  succeeded += other.succeeded;
  failed += other.failed;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    errors[i] += other.errors[i];
  }
  for (const auto& [status, count] : other.status_codes) {
    status_codes[status] += count;
  }
  for (const auto& [code, count] : other.grpc_codes) grpc_codes[code] += count;
  for (const auto& [check, count] : other.failed_checks) failed_checks[check] += count;
  latency.merge(other.latency);
  connect.merge(other.connect);
  processing.merge(other.processing);
  waiting.merge(other.waiting);
  queueing.merge(other.queueing);
  challenge.merge(other.challenge);
  streams.merge(other.streams);
  events.merge(other.events);
  bytes_received += other.bytes_received;
  body_bytes += other.body_bytes;
  bytes_sent += other.bytes_sent;
  connections_opened += other.connections_opened;
  for (std::size_t i = 0; i < negotiated.size(); ++i) negotiated[i] += other.negotiated[i];
  keep_alive_responses += other.keep_alive_responses;
  long_lived.merge(other.long_lived);
  rate.merge(other.rate);
}

std::size_t Metrics::memory_bytes() const {
  // A std::map node: three pointers and a colour word (libstdc++), then the key and value.
  constexpr std::size_t map_node = 4 * sizeof(void*) + sizeof(std::pair<const int, std::uint64_t>);
  std::size_t bytes =
      sizeof(*this) + (status_codes.size() + grpc_codes.size() + failed_checks.size()) * map_node;
  for (const Histogram* histogram :
       {&latency, &connect, &processing, &waiting, &queueing, &challenge, &rate.service_time,
        &rate.lag, &events.first_event, &events.gap}) {
    bytes += histogram->memory_bytes() - sizeof(Histogram);
  }
  bytes += servers.entries().capacity() * sizeof(servers.entries().front());
  for (const auto& [server, count] : servers.entries()) bytes += server.capacity();
  bytes += document_lengths.entries().capacity() * sizeof(document_lengths.entries().front());
  return bytes;
}

void Metrics::reset() {
  succeeded = failed = 0;
  errors.fill(0);
  status_codes.clear();
  grpc_codes.clear();
  failed_checks.clear();
  latency.reset();
  connect.reset();
  processing.reset();
  waiting.reset();
  queueing.reset();
  challenge.reset();
  streams = {};
  events.reset();
  bytes_received = body_bytes = bytes_sent = 0;
  connections_opened = keep_alive_responses = 0;
  negotiated.fill(0);
  servers.clear();
  document_lengths.clear();
  long_lived = {};
  rate.service_time.reset();
  rate.lag.reset();
  rate.due = rate.scheduled = rate.capped = rate.missed = 0;
}

}  // namespace stampede::statistics
