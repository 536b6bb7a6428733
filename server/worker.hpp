// One virtual user: a coroutine that sends its requests back to back and records each result.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <cstdint>
#include <functional>

#include "server/client/client.hpp"
#include "server/flow.hpp"
#include "server/shard.hpp"
#include "verify/verifier.hpp"

namespace stampede::server {

/// Everything a user needs; the engine owns all of it for longer than any user runs.
struct UserTask {
  Shard* shard = nullptr;
  const Flow* flow = nullptr;
  const verify::Verifier* verifier = nullptr;
  client::Watchdog* watchdog = nullptr;  ///< the user's thread's

  std::uint64_t requests = 0;       ///< rounds of the flow's steps; 0: until the run is stopped
  std::function<void()> on_finish;  ///< called on the user's thread when it is done
};

/// The user loop: for each step of the flow in turn, exchange -> measure -> verify -> record;
/// `requests` rounds.
boost::asio::awaitable<void> run_user(UserTask task);

/// The Result the statistics keep for one exchange: latency is the exchange alone, and a
/// response the verifier rejects is a `verify` failure.
model::Result to_result(const model::Response& response, std::chrono::nanoseconds latency,
                        const verify::Verifier& verifier);

}  // namespace stampede::server
