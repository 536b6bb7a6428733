// launch_users(): how a thread's users start: all at once, along --ramp, on --rate's schedule,
// or along --stages.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "model/plan.hpp"
#include "server/pacing/rate_profile.hpp"
#include "server/rate_pacer.hpp"
#include "server/stage_driver.hpp"
#include "server/worker.hpp"

namespace stampede::server {

/// A thread's place among the run's threads.
struct ThreadSlot {
  unsigned index;
  unsigned count;
};

/// What keeps starting a thread's users while the run goes: --rate's pacer or --stages' driver
/// (neither: the users all started at the beginning, or along --ramp).
struct ThreadStarter {
  std::unique_ptr<RatePacer> rate;
  std::unique_ptr<StageDriver> stages;

  /// The run is stopping gracefully: start nothing more.
  void stop() {
    if (rate) rate->stop();
    if (stages) stages->stop();
  }
  /// The threads have stopped: --rate's requests that never started are counted missed.
  void settle() {
    if (rate) rate->settle();
  }
};

/// --rate's requests a second over the run: fixed, rising along --ramp, or along --stages.
pacing::RateProfile rate_profile(const model::Plan& plan);

/// --rate's requests a second on average over the run (0: no --rate): those asked for over -z's
/// window, or -n's total over the time it takes.
double asked_rate(const model::Plan& plan);

/// How many ends the engine waits for before the run is over: a user's each, and a pacer's or
/// a driver's each (so the run outlasts their bookkeeping); a driver adds one a user it starts.
std::uint64_t ends_to_wait_for(const model::Plan& plan, unsigned threads);

/// Starts thread `slot`'s share of the users as `plan` says, each from `task` (whose
/// on_finish counts an end in `users_left`): `users` of them, numbered from `first_user`
/// (--stages numbers them across the threads instead). Call on the thread before it runs.
ThreadStarter launch_users(const model::Plan& plan, ThreadSlot slot, const UserTask& task,
                           std::uint64_t first_user, std::uint64_t users,
                           std::atomic<std::uint64_t>& users_left);

}  // namespace stampede::server
