// Engine::run(): threads, users, the per-second tick, and the three ways a run stops.
#include "server/engine.hpp"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/system_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <optional>
#include <variant>

#include "server/thread_pool.hpp"
#include "server/user_launch.hpp"

namespace stampede::server {

namespace {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;
using statistics::StopReason;
constexpr auto as_tuple = net::as_tuple(net::use_awaitable);

/// What the supervising coroutines share; all of it outlives them (owned by Engine::run).
struct Supervision {
  Collector* collector;
  ThreadPool* pool;
  std::vector<ThreadTally>* tallies;
  net::steady_timer* users_done;
  const std::atomic<std::uint64_t>* users_left;
  net::signal_set* signals;        ///< SIGINT and SIGTERM, caught from before the first user starts
  net::steady_timer* aborted;      ///< cancelled by Engine::abort()
  net::steady_timer* interrupted;  ///< cancelled by Engine::interrupt()
  Clock::time_point start;
  std::chrono::milliseconds time_limit;
};

/// Once a second, asks every thread to send its Tick to the collector. It never waits on the
/// channel itself, so stopping the run cancels a timer, never a channel operation.
net::awaitable<StopReason> tick_every_second(Supervision s) {
  net::steady_timer timer(co_await net::this_coro::executor);
  for (long second = 1;; ++second) {
    timer.expires_at(s.start + std::chrono::seconds(second));
    if (auto [error] = co_await timer.async_wait(as_tuple); error) break;
    const auto elapsed = Clock::now() - s.start;
    for (std::size_t i = 0; i < s.tallies->size(); ++i) {
      net::post(s.pool->context(i), [tally = &(*s.tallies)[i], collector = s.collector, elapsed,
                                     source = i, second] {
        auto tick = tally->take();
        tick.elapsed = elapsed;
        tick.source = source;
        tick.second = static_cast<std::uint64_t>(second);
        // The channel holds two ticks a thread; if a slow tick handler (a blocked terminal)
        // lets it fill, the metrics go back to the tally for the next tick. Asio's try_send
        // leaves its argument untouched when it refuses.
        if (!collector->channel().try_send(boost::system::error_code{}, std::move(tick))) {
          tally->give_back(std::move(tick));
        }
      });
    }
  }
  co_return StopReason::completed;
}

net::awaitable<StopReason> wait_for_users(Supervision s) {
  if (s.users_left->load() > 0) co_await s.users_done->async_wait(as_tuple);
  co_return StopReason::completed;
}

net::awaitable<StopReason> wait_for_signal(Supervision s) {
  co_await s.signals->async_wait(as_tuple);
  co_return StopReason::interrupted;
}

net::awaitable<StopReason> wait_for_abort(Supervision s) {
  co_await s.aborted->async_wait(as_tuple);
  co_return StopReason::aborted;
}

net::awaitable<StopReason> wait_for_interrupt(Supervision s) {
  co_await s.interrupted->async_wait(as_tuple);
  co_return StopReason::interrupted;
}

net::awaitable<StopReason> wait_for_time_limit(Supervision s) {
  net::steady_timer timer(co_await net::this_coro::executor);
  timer.expires_at(s.time_limit.count() > 0 ? s.start + s.time_limit : Clock::time_point::max());
  co_await timer.async_wait(as_tuple);
  co_return StopReason::time_limit;
}

net::awaitable<StopReason> supervise(Supervision s) {
  using namespace net::experimental::awaitable_operators;
  const auto first =
      co_await (tick_every_second(s) || wait_for_users(s) || wait_for_signal(s) ||
                wait_for_time_limit(s) || wait_for_abort(s) || wait_for_interrupt(s));
  co_return std::visit([](StopReason reason) { return reason; }, first);
}

/// A stopped run with long-lived or shared connections closes them as their protocol would (a
/// WebSocket close frame, an HTTP/2 GOAWAY) before the threads stop: users send nothing more,
/// held connections say goodbye, and all of it gets a second at most.
void let_users_say_goodbye(ThreadPool& pool, std::vector<ThreadTally>& tallies,
                           const std::vector<std::unique_ptr<client::Watchdog>>& watchdogs,
                           std::vector<ThreadStarter>& starters,
                           const std::atomic<std::uint64_t>& users_left, net::io_context& main) {
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    net::post(pool.context(i),
              [tally = &tallies[i], watchdog = watchdogs[i].get(), starter = &starters[i]] {
                tally->stopping = true;
                watchdog->end_holds();
                starter->stop();
              });
  }
  const auto give_up = Clock::now() + std::chrono::seconds(1);
  while (users_left.load() > 0 && Clock::now() < give_up) {
    main.run_one_for(std::chrono::milliseconds(10));
  }
}

/// True once the wall clock reaches the timer's time, false if a signal comes first.
net::awaitable<bool> reach_start(net::system_timer* timer, net::signal_set* signals) {
  using namespace net::experimental::awaitable_operators;
  const auto first = co_await (timer->async_wait(as_tuple) || signals->async_wait(as_tuple));
  co_return first.index() == 0;
}

/// --start-at: runs `main` until the wall clock reaches `at`; false when SIGINT or SIGTERM came
/// first (the run then ends before it began).
bool wait_for_start(net::io_context& main, net::signal_set& signals,
                    std::chrono::system_clock::time_point at) {
  net::system_timer timer(main, at);
  std::optional<bool> due;
  net::co_spawn(main, reach_start(&timer, &signals),
                [&due](const std::exception_ptr& error, bool reached) {
                  if (error) std::rethrow_exception(error);
                  due = reached;
                });
  while (!due) main.run_one();
  main.restart();  // it may have run out of work: the run goes on with it
  return *due;
}

statistics::RunInfo run_info(const Flow& flow, const model::Plan& plan, unsigned threads) {
  const auto& first = flow.steps().front().request;
  statistics::RunInfo info{first.origin, first.target,     plan.users, plan.rounds_per_user,
                           threads,      first.keep_alive, {}};
  for (const auto& step : flow.steps()) info.steps.push_back(step.name);
  info.flows = plan.mix;
  info.rate = asked_rate(plan);
  info.rate_moves = plan.rate > 0 && (plan.ramp.count() > 0 || !plan.stages.empty());
  info.window = plan.duration;
  info.latency_per_second = plan.latency_per_second;
  info.protocol = model::protocol_of(first);
  info.held = plan.hold.count() > 0 || plan.listen;
  for (const auto& step : flow.steps()) {
    if (const auto unit = model::stream_unit(step.request); !unit.empty()) {
      info.stream_unit = unit;
      break;
    }
  }
  return info;
}

}  // namespace

Engine::Engine(std::vector<model::Request> steps, model::Plan plan,
               std::shared_ptr<const verify::Verifier> verifier, ClientFactory make_client)
    : plan_(plan),
      verifier_(std::move(verifier)),
      make_client_(std::move(make_client)),
      flow_(std::move(steps), plan_, verifier_->needs_body()) {}

statistics::Summary Engine::run(const TickHandler& on_tick, const RequestSink& on_requests) {
  // -m: at most one user per connection, and at most one thread per connection (a thread's
  // users share its connections).
  const auto shared = std::min(plan_.connections, plan_.users);
  const auto threads = static_cast<unsigned>(std::max<std::uint64_t>(
      1, std::min({std::uint64_t{plan_.threads}, plan_.users, shared > 0 ? shared : plan_.users})));
  std::vector<ThreadTally> tallies(threads);
  const auto steps = flow_.steps().size();
  for (auto& tally : tallies) {
    tally.steps.resize(steps > 1 ? steps : 0);
    tally.keep_requests = static_cast<bool>(on_requests);
  }
  net::io_context main(1);
  // Caught from here on (a signal before the wait is kept for it), not from when the supervisor
  // first runs: on a busy machine a Ctrl-C in between killed the run without its report.
  net::signal_set signals(main, SIGINT, SIGTERM);
  const bool started = !plan_.start_at || wait_for_start(main, signals, *plan_.start_at);
  auto info = run_info(flow_, plan_, threads);
  info.checks = verifier_->checks();
  // Made once the run starts: it notes the wall-clock start, which saved runs merge on.
  Collector collector(main.get_executor(), threads, std::move(info), on_tick, on_requests);
  if (!started) return collector.finish({}, std::chrono::nanoseconds(0), StopReason::interrupted);
  // Declared before the pool: users' clients, destroyed with the pool, unregister from them.
  std::vector<std::unique_ptr<client::Watchdog>> watchdogs;
  std::vector<client::ThreadContext> contexts;
  ThreadPool pool(threads);
  // --rate's pacers, --stages' drivers. After the pool: their timers go before the threads'
  // io_contexts, and nothing a coroutine frame destroys with the pool touches them.
  std::vector<ThreadStarter> starters(threads);
  for (unsigned i = 0; i < threads; ++i) {
    watchdogs.push_back(
        std::make_unique<client::Watchdog>(flow_.shortest_timeout(plan_.request_timeout)));
    net::co_spawn(pool.context(i), watchdogs.back()->run(), net::detached);
    contexts.push_back(
        {pool.context(i).get_executor(),
         watchdogs.back().get(),
         static_cast<std::uint32_t>(shared / threads + (i < shared % threads ? 1 : 0)),
         {},
         {},
         Clock::time_point::max()});
  }
  std::atomic<std::uint64_t> users_left{ends_to_wait_for(plan_, threads)};
  net::steady_timer users_done(main, Clock::time_point::max());
  // Two references: small enough for std::function to keep without allocating (each user
  // keeps a copy, for as long as it holds its connections).
  const auto on_finish = [&users_left, &users_done] {
    if (users_left.fetch_sub(1) == 1) {
      net::post(users_done.get_executor(), [&users_done] { users_done.cancel(); });
    }
  };
  // -z: the window is counted from here, where the users start (and the clock of the run).
  const auto start = Clock::now();
  const auto window_end =
      plan_.duration.count() > 0 ? start + plan_.duration : Clock::time_point::max();
  for (auto& tally : tallies) {
    tally.run_start = start;
    tally.window_end = window_end;
  }
  for (auto& context : contexts) context.window_end = window_end;
  // --think har: some step waits its recorded pause, so the users' paces need a timer.
  const bool step_pauses =
      std::any_of(flow_.steps().begin(), flow_.steps().end(),
                  [](const FlowStep& step) { return step.request.pause.count() > 0; });
  // Thread i's users are numbered on from thread i - 1's (and a shard's from the shards before).
  std::uint64_t first_user = plan_.first_user;
  for (unsigned i = 0; i < threads; ++i) {
    const auto users = plan_.users / threads + (i < plan_.users % threads ? 1 : 0);
    UserTask task;
    task.tally = &tallies[i];
    task.flow = &flow_;
    task.verifier = verifier_.get();
    task.thread = &contexts[i];
    task.make_client = &make_client_;
    task.rounds = plan_.rounds_per_user;
    task.hold = plan_.hold;
    task.pace.interval = plan_.interval;
    task.pace.think_min = plan_.think_min;
    task.pace.think_max = plan_.think_max;
    task.pace.step_pauses = step_pauses;
    task.listen = plan_.listen;
    task.cookies = plan_.cookies;
    task.on_finish = on_finish;
    // Long-lived connections open as fast as the machine allows, through a window of users
    // starting at once (start_window), unless --connect-rate paces them.
    task.counted_starting = flow_.long_lived() && plan_.connect_rate == 0;
    starters[i] = launch_users(plan_, {i, threads}, task, first_user, users, users_left);
    first_user += users;
  }

  net::steady_timer aborted(main, Clock::time_point::max());
  abort_ = [&aborted] { aborted.cancel(); };
  net::steady_timer interrupted(main, Clock::time_point::max());
  {
    const std::lock_guard lock(interrupt_mutex_);
    interrupt_ = [&interrupted] {
      net::post(interrupted.get_executor(), [&interrupted] { interrupted.cancel(); });
    };
  }
  pool.start();
  net::co_spawn(main, collector.run(), net::detached);
  std::optional<StopReason> reason;
  net::co_spawn(main,
                supervise({&collector, &pool, &tallies, &users_done, &users_left, &signals,
                           &aborted, &interrupted, start, plan_.run_timeout}),
                [&](const std::exception_ptr& error, StopReason first) {
                  if (error) std::rethrow_exception(error);
                  reason = first;
                });
  while (!reason) main.run_one();
  abort_ = nullptr;
  {
    const std::lock_guard lock(interrupt_mutex_);
    interrupt_ = nullptr;
  }
  signals.clear();  // a second Ctrl-C kills at once
  // HTTP/2 too: its waiting streams are reset, and a GOAWAY ends each shared connection (-m).
  if (*reason != StopReason::completed && (flow_.long_lived() || flow_.over_http2())) {
    let_users_say_goodbye(pool, tallies, watchdogs, starters, users_left, main);
  }
  // -z: the users ended once the time was up and their requests were over.
  if (*reason == StopReason::completed && plan_.duration.count() > 0) reason = StopReason::duration;
  const auto elapsed = Clock::now() - start;
  pool.stop();  // in-flight requests are abandoned: never recorded, counted in `abandoned`
  for (auto& starter : starters) starter.settle();
  // Ticks the threads sent before stopping reach the collector, then its loop ends.
  main.poll();
  collector.close();
  main.poll();

  std::vector<Tick> remainders;
  std::uint64_t users_started = 0;
  for (auto& tally : tallies) {
    remainders.push_back(tally.take());
    users_started += tally.users_started;
  }
  auto summary = collector.finish(std::move(remainders), elapsed, *reason);
  summary.users_started = users_started;
  return summary;
}

void Engine::abort() {
  if (abort_) abort_();
}

void Engine::interrupt() {
  const std::lock_guard lock(interrupt_mutex_);
  if (interrupt_) interrupt_();
}

}  // namespace stampede::server
