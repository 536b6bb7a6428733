// The engine: runs a Plan's users over a pool of threads and returns what happened.
#pragma once

#include <memory>
#include <optional>

#include "model/plan.hpp"
#include "model/request.hpp"
#include "server/client/client.hpp"
#include "server/statistics/collector.hpp"
#include "verify/verifier.hpp"

namespace stampede::server {

/// One load test. The engine never prints: it reports through the tick handler and its result.
class Engine {
 public:
  /// Resolves the host and prepares the request and TLS context. Throws std::runtime_error
  /// when the run cannot start at all (the host does not resolve).
  Engine(model::Request request, model::Plan plan,
         std::shared_ptr<const verify::Verifier> verifier);

  /// Runs until every user is done, the run's time limit passes, or SIGINT/SIGTERM arrives;
  /// calls `on_tick` once a second from the calling thread.
  statistics::Summary run(const statistics::TickHandler& on_tick);

 private:
  model::Request request_;
  model::Plan plan_;
  std::shared_ptr<const verify::Verifier> verifier_;
  std::optional<boost::asio::ssl::context> tls_;
  client::ClientSetup setup_;
  client::PreparedRequest prepared_;
};

}  // namespace stampede::server
