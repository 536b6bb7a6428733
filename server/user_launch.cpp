// launch_users(): spawning users, and the pacer or driver that spawns them later.
#include "server/user_launch.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <functional>
#include <utility>
#include <vector>

#include "server/user_start.hpp"

namespace stampede::server {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

/// A user whose coroutine threw (out of memory, say) ends as if it had finished, so the run
/// does not wait for it forever; a request it had in flight is counted as abandoned. Named
/// once per run on stderr.
void end_crashed_user(ThreadTally& tally, const std::function<void()>& on_finish,
                      const std::exception_ptr& error) {
  static std::atomic_flag logged;
  if (!logged.test_and_set()) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      spdlog::error("a user stopped early: {}", e.what());
    } catch (...) {
      spdlog::error("a user stopped early");
    }
  }
  --tally.users_running;
  on_finish();
}

/// Starts `task`'s user on its thread. A user counts as running once started: one the stop
/// came before sent nothing.
void spawn_user(const UserTask& task) {
  ++task.tally->users_running;
  ++task.tally->users_started;
  if (task.counted_starting) ++task.tally->users_starting;
  // The handler keeps what a crash needs, not the task: it lives as long as the user.
  net::co_spawn(task.thread->executor, run_user(task),
                [tally = task.tally, on_finish = task.on_finish](const std::exception_ptr& error) {
                  if (error) end_crashed_user(*tally, on_finish, error);
                });
}

/// --rate: the thread's pacer, running: it starts the thread's `users` (numbered from
/// `first_user`) as the schedule needs them, each with its first request.
std::unique_ptr<RatePacer> start_rate_pacer(const model::Plan& plan, ThreadSlot slot, UserTask task,
                                            std::uint64_t first_user, std::uint64_t users) {
  task.rounds = 0;  // the schedule says when a user is done
  const pacing::RateSchedule schedule(rate_profile(plan), slot.count, slot.index, plan.rate_rounds,
                                      plan.duration);
  const auto executor = task.thread->executor;
  auto pacer = std::make_unique<RatePacer>(
      executor, schedule, static_cast<std::uint32_t>(users), *task.tally,
      [task, first_user](RatePacer& pacer, std::uint32_t local, RateStart first) mutable {
        task.user = first_user + local;
        task.pace.rate = &pacer;
        task.pace.local = local;
        task.pace.first = first;
        spawn_user(task);
      },
      task.on_finish);
  net::co_spawn(executor, pacer->run(), net::detached);
  return pacer;
}

/// --stages: the thread's driver, running: it starts and stops the thread's users (user `local`
/// is the run's first_user + local x threads + index) as the level moves; each start is one more
/// end to wait for.
std::unique_ptr<StageDriver> start_stage_driver(const model::Plan& plan, ThreadSlot slot,
                                                UserTask task,
                                                std::atomic<std::uint64_t>& users_left) {
  task.rounds = 0;  // the stages say when a user is done
  std::vector<pacing::Stage> stages;
  for (const auto& stage : plan.stages) stages.push_back({stage.duration, stage.target});
  const auto executor = task.thread->executor;
  auto driver = std::make_unique<StageDriver>(
      executor, pacing::Stages(std::move(stages)), slot.count, slot.index, *task.tally,
      [task, slot, first = plan.first_user, &users_left](StageDriver& driver,
                                                         std::uint32_t local) mutable {
        users_left.fetch_add(1);
        auto user = task;
        user.user = first + std::uint64_t{local} * slot.count + slot.index;
        user.pace.local = local;
        user.on_finish = [&driver, local, finish = task.on_finish] {
          driver.ended(local);
          finish();
        };
        spawn_user(user);
      },
      task.on_finish);
  net::co_spawn(executor, driver->run(), net::detached);
  return driver;
}

}  // namespace

pacing::RateProfile rate_profile(const model::Plan& plan) {
  if (plan.ramp.count() == 0 && plan.stages.empty()) return pacing::RateProfile(plan.rate);
  std::vector<pacing::RateStage> stages;
  if (plan.ramp.count() > 0) stages.push_back({plan.ramp, plan.rate});
  for (const auto& stage : plan.stages) {
    stages.push_back({stage.duration, static_cast<double>(stage.target)});
  }
  return pacing::RateProfile(std::move(stages));
}

double asked_rate(const model::Plan& plan) {
  if (plan.rate <= 0) return 0;
  const auto profile = rate_profile(plan);
  if (plan.duration.count() > 0) {
    return static_cast<double>(profile.asked_by(plan.duration) /
                               std::chrono::duration<long double>(plan.duration).count());
  }
  const auto end = profile.due(plan.rate_rounds);  // when one more would be due
  return end && end->count() > 0
             ? static_cast<double>(plan.rate_rounds) / std::chrono::duration<double>(*end).count()
             : plan.rate;
}

std::uint64_t ends_to_wait_for(const model::Plan& plan, unsigned threads) {
  if (plan.rate > 0) return plan.users + threads;
  return plan.stages.empty() ? plan.users : threads;
}

ThreadStarter launch_users(const model::Plan& plan, ThreadSlot slot, const UserTask& task,
                           std::uint64_t first_user, std::uint64_t users,
                           std::atomic<std::uint64_t>& users_left) {
  if (plan.rate > 0) return {start_rate_pacer(plan, slot, task, first_user, users), nullptr};
  if (!plan.stages.empty()) return {nullptr, start_stage_driver(plan, slot, task, users_left)};
  auto start_one = [user = task, first_user](std::uint64_t local) mutable {
    user.user = first_user + local;
    spawn_user(user);
  };
  // --connect-rate N: the run starts a user every 1/N seconds, --ramp D every D/c: each of the
  // T threads every T times that, the threads in turn.
  auto gap = std::chrono::nanoseconds(0);
  if (plan.connect_rate > 0) {
    gap = std::chrono::nanoseconds(std::chrono::seconds(1)) /
          static_cast<std::int64_t>(plan.connect_rate);
  } else if (plan.ramp.count() > 0) {
    gap = std::chrono::nanoseconds(plan.ramp) / static_cast<std::int64_t>(plan.users);
  }
  const auto* starting = task.counted_starting ? &task.tally->users_starting : nullptr;
  net::co_spawn(task.thread->executor,
                start_users(users, std::move(start_one), gap * slot.count, starting,
                            task.tally->window_end, gap * slot.index),
                net::detached);
  return {};
}

}  // namespace stampede::server
