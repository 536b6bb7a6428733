// A run's requests (one, or the steps of a flow) and the connection setups they share.
#pragma once

#include <atomic>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "model/request.hpp"
#include "server/client/client.hpp"
#include "server/request_fields.hpp"
#include "server/request_template.hpp"
#include "server/session/capture.hpp"

namespace stampede::server {

/// Where a user connects: one per origin and certificate check among the steps, so that steps
/// to the same server share a user's connection, as they would in a browser tab.
struct Destination {
  std::optional<boost::asio::ssl::context> tls;
  client::ClientSetup setup;
};

/// The endpoints a connection from `sources` (--source-ips, one family) can reach: those of
/// their family; all of them without sources. Throws std::runtime_error, naming `host`, when
/// none is left.
std::vector<boost::asio::ip::tcp::endpoint> reachable_from(
    std::vector<boost::asio::ip::tcp::endpoint> endpoints,
    const std::vector<boost::asio::ip::address>& sources, const std::string& host);

/// The names `requests`' captures keep, each once, in the order they first appear: their
/// slots.
std::vector<std::string> capture_names(const std::vector<model::Request>& requests);

/// One request of the run, serialized once.
struct FlowStep {
  model::Request request;
  client::PreparedRequest prepared;
  std::size_t destination = 0;  ///< index into Flow::destinations()
  std::string name;             ///< "GET http://host:port/path", for the report
  /// The variables in `prepared` (`${seq}`, ...), rendered for each request; none: it is sent
  /// as it is.
  std::optional<RequestTemplate> variables;
  /// With variables, for a step whose exchange may go on (-redirect, --digest): its fields'
  /// templates. The user renders the request itself and prepares it, so that the hops and the
  /// answer carry the values it sent.
  std::optional<FieldsTemplate> fields;
  /// What the step keeps from its response for later requests; a step whose captures find
  /// nothing fails as ErrorKind::capture and ends its user's round.
  std::vector<session::CompiledCapture> captures;
};

/// The steps a round sends, `count` from `first`.
struct StepRange {
  std::size_t first = 0;
  std::size_t count = 0;
};

/// Built before the run (each host resolved, TLS prepared), read-only while it runs. Each
/// user sends the steps in order, `-n` times (with a mix, one flow's steps each time).
class Flow {
 public:
  /// `requests` in the order users send them (at least one). Throws std::runtime_error when a
  /// host does not resolve.
  Flow(std::vector<model::Request> requests, const model::Plan& plan, bool keep_body);
  Flow(const Flow&) = delete;
  Flow& operator=(const Flow&) = delete;

  [[nodiscard]] const std::vector<FlowStep>& steps() const { return steps_; }
  [[nodiscard]] const std::vector<std::unique_ptr<Destination>>& destinations() const {
    return destinations_;
  }
  /// The names the steps capture, by slot (`${NAME}` in later requests).
  [[nodiscard]] const std::vector<std::string>& capture_names() const { return capture_names_; }
  /// How a request names `variable`: `${token}`, `${csv:id}` (for messages).
  [[nodiscard]] std::string variable_name(const session::Variable& variable) const;
  /// The headers (lower case) the steps' captures and --digest read, which the clients must
  /// keep.
  [[nodiscard]] const std::vector<std::string>& capture_headers() const { return capture_headers_; }
  /// The --data-file row a user's round reads, by the file's mode; nullptr without a file.
  /// Thread-safe: per-request rows are handed out by one atomic counter.
  const std::vector<std::string>* row_for(session::UserValues& values) const;
  /// The steps of a user's round: all of them; with a mix (Plan::mix), the steps of a flow
  /// drawn by weight from the user's seeded draw.
  StepRange round_steps(session::UserValues& values) const;
  /// True when some step goes over a long-lived connection: WebSocket, or HTTP/2 with --hold.
  [[nodiscard]] bool long_lived() const;
  /// True when some step goes over HTTP/2 (gRPC too), whose users wait for a reply on their
  /// connection's reader, not on a socket of their own: a stopping run resets their streams.
  [[nodiscard]] bool over_http2() const;
  /// The shortest limit any exchange has (the run's -t or a step's own), or --ping's interval
  /// for held HTTP/2 connections: the watchdogs check often enough for it.
  [[nodiscard]] std::chrono::nanoseconds shortest_timeout(std::chrono::nanoseconds run) const;

 private:
  std::size_t destination_of(const model::Request& request, const model::Plan& plan,
                             bool keep_body);

  std::vector<std::string> capture_names_;
  std::vector<std::string> capture_headers_;
  std::vector<model::FlowShare> mix_;
  std::uint64_t mix_weight_ = 0;  ///< the mix's weights, summed
  std::shared_ptr<const model::DataRows> data_;
  mutable std::atomic<std::uint64_t> next_row_{0};  ///< per-request: the next round's row
  std::vector<FlowStep> steps_;  ///< never resized after construction: prepared requests
                                 ///< point at their step's request (for -redirect)
  std::vector<std::unique_ptr<Destination>> destinations_;
};

}  // namespace stampede::server
