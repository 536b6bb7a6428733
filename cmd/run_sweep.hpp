// run_sweep(): --sweep and --sweep-rate, each target run level after level, the knee found.
#pragma once

#include <cstdio>

#include <functional>

#include "cmd/options.hpp"
#include "cmd/run_engine.hpp"
#include "server/sweep/sweep_result.hpp"

namespace stampede::cmd {

/// Runs the sweep `options` ask for: for each -u target (in order), each level (the listed
/// ones, or AutoSearch's) as one run of -z (10 s by default) after an uncounted warm-up of
/// --warmup (2 s by default). Every target's URL is checked before any load is sent. The live
/// rows, with a line before each step naming it, go to `rows`. Ctrl-C ends the sweep with the
/// steps that finished; --pv plans servers from the first target's knee.
/// What a sweep reports besides its rows (--dashboard): each run's hooks (a warm-up's too), and
/// the sweep so far after each step.
struct SweepHooks {
  RunHooks run{};
  std::function<void(const server::sweep::SweepResult&)> on_step{};
};

server::sweep::SweepResult run_sweep(const Options& options, std::FILE* rows,
                                     const SweepHooks& hooks = {});

}  // namespace stampede::cmd
