// The engine: runs a Plan's users over a pool of threads and returns what happened.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "model/plan.hpp"
#include "model/request.hpp"
#include "server/collector.hpp"
#include "server/flow.hpp"
#include "server/worker.hpp"
#include "verify/verifier.hpp"

namespace stampede::server {

/// One load test. The engine never prints: it reports through the tick handler and its result.
class Engine {
 public:
  /// Resolves the hosts and prepares the requests and TLS contexts. `steps`: one request, or
  /// a flow's requests in the order each user sends them. `make_client` makes each user's
  /// clients (a fake one in tests). Throws std::runtime_error when the run cannot start at all
  /// (a host does not resolve).
  Engine(std::vector<model::Request> steps, model::Plan plan,
         std::shared_ptr<const verify::Verifier> verifier,
         ClientFactory make_client = client::make_client);

  /// Runs until every user is done, the run's time limit passes, or SIGINT/SIGTERM arrives;
  /// calls `on_tick` once a second from the calling thread, and with -g `on_requests` with the
  /// requests of each tick (every request kept as a line only when it is given).
  statistics::Summary run(const TickHandler& on_tick, const RequestSink& on_requests = {});

  /// Stops the run as Ctrl-C would (requests in flight abandoned), its stop reason `aborted`:
  /// for --abort-on-fail. Call it from the tick handler (the thread running run()).
  void abort();
  /// Stops the run as Ctrl-C does (its stop reason `interrupted`), from any thread: the
  /// dashboard's stop button. Outside run(), nothing.
  void interrupt();

 private:
  model::Plan plan_;
  std::shared_ptr<const verify::Verifier> verifier_;
  ClientFactory make_client_;
  Flow flow_;
  std::function<void()> abort_;      ///< set while run() runs: cancels its abort timer
  std::mutex interrupt_mutex_;       ///< guards interrupt_, which other threads call
  std::function<void()> interrupt_;  ///< set while run() runs: cancels its interrupt timer
};

}  // namespace stampede::server
