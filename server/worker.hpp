// One virtual user: a coroutine that sends its requests back to back and records each result.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "server/client/client.hpp"
#include "server/flow.hpp"
#include "server/thread_tally.hpp"
#include "server/user_pace.hpp"
#include "verify/verifier.hpp"

namespace stampede::server {

/// Makes the client a user talks to one destination with: client::make_client in a run, a fake
/// in tests of the user loop.
using ClientFactory = std::function<std::unique_ptr<client::Client>(
    const client::ClientSetup&, client::ThreadContext&, client::UserId)>;

/// Everything a user needs; the engine owns all of it for longer than any user runs.
struct UserTask {
  ThreadTally* tally = nullptr;
  const Flow* flow = nullptr;
  const verify::Verifier* verifier = nullptr;
  client::ThreadContext* thread = nullptr;  ///< the user's thread's
  const ClientFactory* make_client = nullptr;
  ClockNow now = &std::chrono::steady_clock::now;
  client::UserId user = 0;  ///< 0 to -c - 1, across threads
  /// --hold: how long to keep long-lived connections open after the rounds (Plan::hold).
  std::chrono::milliseconds hold{0};
  /// --listen: after its rounds, the user records each message the server sends (Plan::listen).
  bool listen = false;
  bool cookies = true;  ///< the user keeps cookies (Plan::cookies)
  /// --interval, --think or --rate: when the user's requests start (its seed and clock are
  /// set from `user` and `now`); back to back when none is set.
  PaceSetup pace;

  /// Rounds of the flow's steps; 0: until the run is stopped or the pace ends it (--rate).
  std::uint64_t rounds = 0;
  /// The user counts in ThreadTally::users_starting until its first exchange is over.
  bool counted_starting = false;
  std::function<void()> on_finish;  ///< called on the user's thread when it is done
};

/// The user loop: for each step of the flow in turn, pace -> exchange -> measure -> verify ->
/// record; `rounds` rounds. Under --rate a round's latency counts from when it was due. A
/// long-lived connection (WebSocket) is opened before its exchange and counted apart, so latency is
/// the message alone; at the end each client says goodbye.
boost::asio::awaitable<void> run_user(UserTask task);

/// The Result the statistics keep for one exchange: latency is the exchange alone, and a
/// response the verifier rejects is a `verify` failure.
model::Result to_result(const model::Response& response, std::chrono::nanoseconds latency,
                        const verify::Verifier& verifier);

}  // namespace stampede::server
