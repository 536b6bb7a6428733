// run_user(): the protocol-agnostic user loop (go-stress-testing's per-goroutine loop).
#include "server/worker.hpp"

#include "server/user_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <memory>
#include <utility>

namespace stampede::server {

namespace net = boost::asio;

namespace {

/// Names the first response each destination's verifier rejected, once, as clients name the
/// first failure of the other kinds.
void log_first_rejection(const client::ClientSetup& setup, const verify::Verifier& verifier,
                         const model::Response& response) {
  auto& flag = setup.failure_logged[static_cast<std::size_t>(model::ErrorKind::verify)];
  if (flag.test_and_set(std::memory_order_relaxed)) return;
  spdlog::warn("first verify failure: {}", verifier.why_rejected(response));
}

/// Once a run: which capture found nothing, and in what, so the user can see why.
void log_first_missed_capture(const client::ClientSetup& setup, const FlowStep& step,
                              const session::CompiledCapture& capture,
                              const model::Response& response) {
  auto& flag = setup.failure_logged[static_cast<std::size_t>(model::ErrorKind::capture)];
  if (flag.test_and_set(std::memory_order_relaxed)) return;
  constexpr std::size_t shown = 200;
  std::string body = response.body.substr(0, shown);
  for (auto& c : body) c = (c < ' ' || c == '\x7f') ? ' ' : c;  // one line in the log
  spdlog::warn("first capture failure: {} found nothing for ${{{}}} (status {}, body: '{}')",
               step.name, capture.capture().name, response.status, body);
}

/// A request a value made unsafe (UserSession::unsafe) is not sent: it fails as
/// ErrorKind::unsafe, and the first one a run says which value of which step.
void refuse_unsafe(const Flow& flow, const FlowStep& step, const session::Variable& variable,
                   model::Response& response) {
  response.clear();
  response.error = model::ErrorKind::unsafe;
  const auto& setup = flow.destinations()[step.destination]->setup;
  auto& flag = setup.failure_logged[static_cast<std::size_t>(model::ErrorKind::unsafe)];
  if (flag.test_and_set(std::memory_order_relaxed)) return;
  spdlog::warn(
      "first unsafe failure: {} held CR, LF or NUL for a header of {}: the request was not sent",
      flow.variable_name(variable), step.name);
}

/// `client` has a long-lived connection open now.
bool long_lived_open(client::Client& client) {
  const auto* connection = client.long_lived();
  return connection != nullptr && connection->is_open();
}

/// After an exchange or a hold on a long-lived `connection` (null: none) that ended as `how`:
/// if it is no longer open, it ended, closed by the server or lost (a message that timed out
/// drops its connection too).
void note_if_ended(ThreadTally& tally, const client::LongLived* connection, model::ErrorKind how) {
  if (connection == nullptr || connection->is_open()) return;
  auto& connections = tally.metrics.long_lived;
  ++connections.ended;
  if (const auto code = connection->close_code(); code != 0) ++connections.close_codes[code];
  if (how == model::ErrorKind::closed) {
    ++connections.closed_by_server;
  } else if (how != model::ErrorKind::none) {
    connections.fail(how);
  }
}

/// After an exchange of a client that opens its long-lived connections inside exchange()
/// (HTTP/2 with --hold), given whether one was open before: counts the connection it opened,
/// the one it replaced (the server had closed it or sent GOAWAY) and one it could not open.
/// True when there was a connection to end, for note_if_ended().
bool note_opened_within(ThreadTally& tally, const model::Response& response, bool was_open) {
  auto& connections = tally.metrics.long_lived;
  if (response.new_connection) {
    connections.open(tally.since_start());
    if (was_open) {
      ++connections.ended;
      ++connections.closed_by_server;
    }
    return true;
  }
  if (!was_open && response.error != model::ErrorKind::none) connections.fail(response.error);
  return was_open;
}

/// After an exchange of an event stream's reader (SSE), given whether a stream was open before:
/// the stream the server ended (the exchange then opened another), the one it opened, and one
/// it lost or could not open.
void note_streams(ThreadTally& tally, const model::Response& response, bool was_open,
                  const client::LongLived& connection) {
  auto& streams = tally.metrics.long_lived;
  if (response.stream_ended) {
    ++streams.ended;
    ++streams.closed_by_server;
    was_open = false;
  }
  if (response.stream_opened) {
    streams.open(tally.since_start());
    was_open = true;
  }
  if (was_open) {
    note_if_ended(tally, &connection, response.error);
  } else if (response.error != model::ErrorKind::none) {
    streams.fail(response.error);
  }
}

/// After an exchange of an event stream's reader that brought no event: a wait the run's end
/// cut short, or a stream the server ended (without --reconnect). Counts the streams; it was no
/// request, so the in-flight count drops it. True when it was one of those.
bool no_event(ThreadTally& tally, const model::Response& response, bool was_open,
              const client::LongLived& connection) {
  const bool ended = response.stream_ended && response.stream_event == model::StreamEvent::none &&
                     response.error == model::ErrorKind::none;
  if (!response.cut_short && !ended) return false;
  note_streams(tally, response, was_open, connection);
  --tally.in_flight;
  return true;
}

/// A gRPC client-streaming call's messages count as sent once they went into frames; those of a
/// call that ended without its answer (cut by the run's stop, failed, timed out, or left by a
/// user that stopped) are counted as unanswered too: nothing says the server read them.
/// `unanswered` is the call's messages counted so far.
void note_sent(ThreadTally& tally, std::uint64_t& unanswered, const model::Response& response) {
  if (response.sent_only && response.error == model::ErrorKind::none && !response.cut_short) {
    ++unanswered;
    return;
  }
  const bool answered = !response.cut_short && response.status != 0;
  if (!answered) tally.metrics.events.unanswered += unanswered;
  unanswered = 0;
}

/// When the user's long-lived connections are held (--hold) until: -z's end at the latest.
std::chrono::steady_clock::time_point hold_until(std::chrono::milliseconds hold,
                                                 const ThreadTally& tally) {
  if (hold == std::chrono::milliseconds::max()) return tally.window_end;
  return std::min(std::chrono::steady_clock::now() + hold, tally.window_end);
}

/// -z: the time is up, so the user starts no more requests (those in flight are counted).
bool window_over(const UserTask& task) {
  const auto end = task.tally->window_end;
  return end != std::chrono::steady_clock::time_point::max() && task.now() >= end;
}

/// Opens `connection` for `request` and counts it, or its failure (which is also the failure of
/// the request that needed it). True when it is open.
net::awaitable<bool> open_connection(client::LongLived& connection,
                                     const client::PreparedRequest& request,
                                     model::Response& response, ThreadTally& tally) {
  co_await connection.open(request, response);
  const bool ready = response.error == model::ErrorKind::none;
  if (ready) {
    tally.record_connection(response);
  } else {
    tally.metrics.long_lived.fail(response.error);
  }
  co_return ready;
}

/// --listen: a connection no request opened (no -data) is opened for the listening, with its
/// destination's first step; one that cannot open counts as a failed message, and one the
/// stopping run leaves unanswered as abandoned (in flight until then, as a message would be).
net::awaitable<void> open_to_listen(std::vector<std::unique_ptr<client::Client>>& clients,
                                    const UserTask& task, model::Response& response) {
  auto& tally = *task.tally;
  for (const auto& step : task.flow->steps()) {
    auto* connection = clients[step.destination]->long_lived();
    if (connection == nullptr || !connection->opens_apart() || connection->is_open()) continue;
    ++tally.in_flight;
    const bool opened = co_await open_connection(*connection, step.prepared, response, tally);
    --tally.in_flight;
    if (!opened) tally.record(0, to_result(response, {}, *task.verifier));
  }
}

/// A user in its thread's ThreadTally::users_starting, until done() or its end.
class StartingUser {
 public:
  StartingUser(ThreadTally& tally, bool counted) : tally_(counted ? &tally : nullptr) {}
  ~StartingUser() { done(); }
  StartingUser(const StartingUser&) = delete;
  StartingUser& operator=(const StartingUser&) = delete;

  void done() {
    if (tally_ != nullptr) --tally_->users_starting;
    tally_ = nullptr;
  }

 private:
  ThreadTally* tally_;
};

/// Each client says goodbye (a WebSocket close frame), then the user is done.
net::awaitable<void> say_goodbyes(std::vector<std::unique_ptr<client::Client>>& clients,
                                  ThreadTally& tally, const std::function<void()>& on_finish) {
  for (auto& client : clients) {
    const bool open = long_lived_open(*client);
    co_await client->finish();
    if (open) ++tally.metrics.long_lived.ended;
  }
  --tally.users_running;
  on_finish();
}

/// --hold without --listen: a user whose connections are held by callbacks once its coroutine
/// has ended, since its coroutine frames (run_user's, co_spawn's and the read's, about 2 KiB)
/// would be memory per held connection. It owns the user's clients until their holds are
/// over, then ends the user as run_user would. A client that can hold only with receive()
/// holds in a coroutine of its own.
class HeldUser final : public client::HoldOwner, public std::enable_shared_from_this<HeldUser> {
 public:
  HeldUser(std::vector<std::unique_ptr<client::Client>> clients, const UserTask& task)
      : clients_(std::move(clients)),
        tally_(*task.tally),
        executor_(task.thread->executor),
        on_finish_(task.on_finish) {}

  void start(std::chrono::steady_clock::time_point until) {
    for (auto& client : clients_) holding_ += long_lived_open(*client) ? 1 : 0;
    if (holding_ == 0) {
      finish_later();
      return;
    }
    for (auto& client : clients_) {
      if (!long_lived_open(*client)) continue;
      auto& connection = *client->long_lived();
      if (connection.hold(until, shared_from_this())) continue;
      net::co_spawn(executor_, receive_until_closed(connection, until), net::detached);
    }
  }

  void hold_ended(client::LongLived& connection, model::ErrorKind how) override {
    note_if_ended(tally_, &connection, how);
    if (--holding_ == 0) finish_later();
  }

 private:
  net::awaitable<void> receive_until_closed(client::LongLived& connection,
                                            std::chrono::steady_clock::time_point until) {
    const auto self = shared_from_this();
    model::Response response;
    while (connection.is_open()) co_await connection.receive(until, response);
    hold_ended(connection, response.error);
  }

  /// Not at once: a hold ends inside its client's completion handler.
  void finish_later() { net::co_spawn(executor_, finish(shared_from_this()), net::detached); }

  static net::awaitable<void> finish(std::shared_ptr<HeldUser> self) {
    co_await say_goodbyes(self->clients_, self->tally_, self->on_finish_);
  }

  std::vector<std::unique_ptr<client::Client>> clients_;
  ThreadTally& tally_;
  const net::any_io_executor& executor_;  ///< the user's thread's
  std::function<void()> on_finish_;
  std::size_t holding_ = 0;  ///< clients whose hold is not over
};

/// --listen: records each message the server sends on the user's open long-lived connections
/// (a success whose latency is the gap since the one before), one connection after another,
/// until their holds are over.
net::awaitable<void> listen(std::vector<std::unique_ptr<client::Client>>& clients,
                            const UserTask& task, model::Response& response) {
  ThreadTally& tally = *task.tally;
  const auto until =
      hold_until(task.hold.count() == 0 ? std::chrono::milliseconds::max() : task.hold, tally);
  for (auto& client : clients) {
    // A stop during an earlier hold ends this one before it starts: only the goodbye is left.
    if (!long_lived_open(*client) || tally.stopping) continue;
    auto& connection = *client->long_lived();
    auto last = task.now();
    while (connection.is_open()) {
      co_await connection.receive(until, response);
      // The server's close ends the listening; a failure (a push over --max-message, a reset,
      // an unanswered --ping) is also a message lost, so Failed requests says so too.
      const bool lost =
          response.error != model::ErrorKind::none && response.error != model::ErrorKind::closed;
      if (!connection.is_open() && !lost) break;
      const auto now = task.now();
      tally.record(0, to_result(response, now - last, *task.verifier));
      last = now;
    }
    note_if_ended(tally, &connection, response.error);
  }
}

/// The end of a user: --hold keeps its long-lived connections open for a while, --listen
/// records what the server sends meanwhile; then each client says goodbye.
/// The requests the clients' exchanges send after their first carry `cookies`' (null: none).
void share_cookies(std::vector<std::unique_ptr<client::Client>>& clients,
                   client::SessionCookies* cookies) {
  for (auto& client : clients) client->share_cookies(cookies);
}

net::awaitable<void> end_user(std::vector<std::unique_ptr<client::Client>>& clients,
                              const UserTask& task, model::Response& response,
                              StartingUser& starting) {
  ThreadTally& tally = *task.tally;
  if (task.listen && !tally.stopping) {
    co_await open_to_listen(clients, task, response);
    starting.done();  // --listen without -data opens here, in the start window
    if (!tally.stopping) co_await listen(clients, task, response);
  }
  starting.done();
  if (task.hold.count() > 0 && !task.listen && !tally.stopping) {
    std::make_shared<HeldUser>(std::move(clients), task)->start(hold_until(task.hold, tally));
    co_return;  // the HeldUser ends the user
  }
  co_await say_goodbyes(clients, tally, task.on_finish);
}

}  // namespace

model::Result to_result(const model::Response& response, std::chrono::nanoseconds latency,
                        const verify::Verifier& verifier) {
  model::Result result;
  static_cast<model::ExchangeRecord&>(result) = response;
  if (result.error == model::ErrorKind::none && !result.sent_only && !verifier.accept(response)) {
    result.error = model::ErrorKind::verify;
    result.failed_check = verifier.failed_check(response);
  }
  result.latency = latency;
  result.server = response.server;
  return result;
}

namespace {

/// Records the exchange of `step` that ran over `span` (start, end): its Result, as the verifier,
/// --rate's schedule and the step's captures judge it; returns its error. Apart from run_user,
/// so that the Result is not one more thing in each user's coroutine frame.
model::ErrorKind record_exchange(
    const UserTask& task, std::size_t step, const model::Response& response,
    std::pair<std::chrono::steady_clock::time_point, std::chrono::steady_clock::time_point> span,
    const UserPace& pace, UserSession& session) {
  const auto& [start, end] = span;
  const auto& flow_step = task.flow->steps()[step];
  const auto& setup = task.flow->destinations()[flow_step.destination]->setup;
  auto result = to_result(response, end - start, *task.verifier);
  if (const auto& due = pace.scheduled()) {  // --rate: counted from when it was due
    result.scheduled = true;
    result.service = result.latency;
    result.latency = end - due->due;
    result.lag = pace.lag();
    // A stream's start was due: its first unit too is waited for from then.
    if (result.stream_event == model::StreamEvent::first) result.first_event += start - due->due;
  }
  if (result.error == model::ErrorKind::verify) {
    log_first_rejection(setup, *task.verifier, response);
  }
  if (!flow_step.captures.empty() && result.error == model::ErrorKind::none) {
    if (const auto* missed = session.capture(flow_step, response)) {
      result.error = model::ErrorKind::capture;
      log_first_missed_capture(setup, flow_step, *missed, response);
    }
  }
  task.tally->record(step, result);
  return result.error;
}

}  // namespace

net::awaitable<void> run_user(UserTask task) {
  const auto& destinations = task.flow->destinations();
  std::vector<std::unique_ptr<client::Client>> clients;  // one connection per destination
  clients.reserve(destinations.size());
  for (const auto& destination : destinations) {
    clients.push_back((*task.make_client)(destination->setup, *task.thread, task.user));
  }
  // Per destination: its client-streaming call's messages sent with no answer yet.
  std::vector<std::uint64_t> unanswered(destinations.size());
  model::Response response;
  response.wanted_headers = task.verifier->headers_read();
  UserSession session(task.cookies, task.user, *task.flow);
  session.want_headers(response);
  if (task.cookies) share_cookies(clients, &session);
  ThreadTally& tally = *task.tally;
  StartingUser starting(tally, task.counted_starting);
  task.pace.seed = task.user;
  task.pace.now = task.now;
  UserPace pace(task.pace, tally, co_await net::this_coro::executor);
  bool paced = true;  // false once the user has no request left: its pace's, or its stream's
  const auto& steps = task.flow->steps();
  // With --listen, -n 0 sends nothing: the listening is what lasts until the run stops.
  const bool endless = task.rounds == 0 && !task.listen;
  const auto going = [&] { return paced && !tally.stopping && !window_over(task); };
  for (std::uint64_t round = 0; (endless || round < task.rounds) && going(); ++round) {
    const StepRange round_steps = session.start_round(round);  // a mix's flow, or every step
    const auto first = round_steps.first;
    for (std::size_t step = first; step < first + round_steps.count && going(); ++step) {
      const auto destination = steps[step].destination;
      auto& client = *clients[destination];
      const auto& prepared = session.request_for(steps[step]);
      const bool event_stream =
          destinations[destination]->setup.stream_as != client::StreamAs::whole;
      // --rate schedules a stream's start: the units of one already open follow at once.
      const bool starts = step == first && !(event_stream && long_lived_open(client));
      // Not in the if: GCC 12 miscompiles co_await there.
      paced = co_await pace.wait(starts, steps[step].request.pause);
      if (!paced) break;
      ++tally.in_flight;
      const bool was_open = long_lived_open(client);
      auto* connection = client.long_lived();
      bool ready = !session.unsafe();
      if (!ready) {
        refuse_unsafe(*task.flow, steps[step], *session.unsafe(), response);
      } else if (connection != nullptr && connection->opens_apart() && !was_open) {
        // A failed open is this request's failure.
        ready = co_await open_connection(*connection, prepared, response, tally);
      }
      const auto start = task.now();
      if (ready) co_await client.exchange(prepared, response);
      const auto end = task.now();  // the clock stops before verification
      note_sent(tally, unanswered[destination], response);
      // Asked again: an HTTP/2 client that fell back to HTTP/1.1 in the exchange holds nothing.
      connection = client.long_lived();
      if (event_stream && ready && no_event(tally, response, was_open, *connection)) {
        // The server ended the user's stream: its reading ends, or under --rate the user is
        // free for the next stream the schedule starts.
        paced = !response.stream_ended || task.pace.rate != nullptr;
        continue;
      }
      if (response.cut_short) {  // abandoned: in_flight keeps it, and the stop ends the loops
        note_if_ended(tally, connection, model::ErrorKind::none);
        continue;
      }
      session.keep(steps[step], response);
      if (event_stream && ready) {
        note_streams(tally, response, was_open, *connection);
      } else if (ready && connection != nullptr && !connection->opens_apart()) {
        ready = note_opened_within(tally, response, was_open);
      }
      if (ready && !event_stream) note_if_ended(tally, connection, response.error);
      starting.done();
      --tally.in_flight;
      const auto error = record_exchange(task, step, response, {start, end}, pace, session);
      // A step that failed before its captures were all taken ends the round: later steps
      // would send what an earlier round kept, or nothing.
      if (!steps[step].captures.empty() && error != model::ErrorKind::none) break;
    }
  }
  pace.end();
  for (const auto left : unanswered) tally.metrics.events.unanswered += left;
  share_cookies(clients, nullptr);  // a held connection outlives the session
  co_await end_user(clients, task, response, starting);
}

}  // namespace stampede::server
