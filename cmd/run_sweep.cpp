// run_sweep(): the levels, their warm-ups and steps, the knee, and the time it all takes.
#include "cmd/run_sweep.hpp"

#include <boost/algorithm/string/join.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cmd/duration_flag.hpp"
#include "cmd/limits.hpp"
#include "cmd/run_config.hpp"
#include "cmd/run_engine.hpp"
#include "cmd/sweep_flags.hpp"
#include "report/report_format.hpp"
#include "server/sweep/knee.hpp"
#include "server/sweep/search.hpp"

namespace stampede::cmd {

namespace sweep = server::sweep;

namespace {

/// Each step's length without -z, and the warm-up's without --warmup: long enough for a
/// steady figure, short enough that a 12-step search takes minutes, not an hour.
constexpr auto default_step = "10s";
constexpr auto default_warmup = "2s";
/// --sweep-rate auto starts here (requests a second) and doubles.
constexpr double first_auto_rate = 100;

double in_seconds(std::chrono::milliseconds length) {
  return std::chrono::duration<double>(length).count();
}

/// How long each level runs: the uncounted warm-up (empty: none), then the step.
struct Timing {
  std::string step;
  std::string warmup;
  double step_s = 0;
  double warmup_s = 0;
};

Timing timing_of(const Options& o) {
  Timing timing;
  timing.step = o.duration.empty() ? default_step : o.duration;
  timing.step_s = in_seconds(parse_duration(timing.step, "-z"));
  const auto warmup = o.warmup.empty() ? std::string(default_warmup) : o.warmup;
  if (warmup != "0") {
    timing.warmup = warmup;
    timing.warmup_s = in_seconds(parse_duration(warmup, "--warmup"));
  }
  return timing;
}

/// The targets in -u order; the curl files (-p) are the one target.
std::vector<std::string> targets_of(const Options& o) {
  if (!o.curl_files.empty()) return {boost::algorithm::join(o.curl_files, " ")};
  return o.urls.empty() ? std::vector<std::string>{o.url} : o.urls;
}

/// Ctrl-C (or SIGTERM) at any moment of a sweep. Each run's engine catches it while it runs;
/// this set stays registered across the runs, so one that comes between two of them is caught
/// too (not the default action, which would end the process without a report) and seen before
/// the next run starts.
class StopSignals {
 public:
  StopSignals() : signals_(context_, SIGINT, SIGTERM) {
    signals_.async_wait([this](const boost::system::error_code& error, int) {
      if (!error) stopped_ = true;
    });
  }
  /// Whether a stop signal came since the sweep began.
  [[nodiscard]] bool stopped() {
    context_.poll();
    return stopped_;
  }

 private:
  boost::asio::io_context context_;
  boost::asio::signal_set signals_;
  bool stopped_ = false;
};

/// What the sweep runs everything with.
struct Sweep {
  const Options& options;
  SweepFlags flags;
  Timing timing;
  std::FILE* rows;
  StopSignals* signals;
  const RunHooks* run_hooks;
  std::function<void()> step_done;  ///< after each step: the sweep so far to its hook
};

/// The options of one run against `target` at `level` for `length`: a plain run, the sweep's
/// own flags taken off.
Options one_run(const Sweep& s, const std::string& target, double level,
                const std::string& length) {
  Options one = s.options;
  one.sweep.clear();
  one.sweep_rate.clear();
  one.slo.clear();
  one.warmup.clear();
  one.page_views = 0;
  if (one.curl_files.empty()) {
    one.url = target;
    one.urls = {target};
  }
  one.duration = length;
  if (s.flags.by_rate) {
    one.rate = level;
    one.has_rate = true;
  } else {
    one.users = static_cast<std::int64_t>(level);
    one.has_users = true;
  }
  return one;
}

std::string level_words(const Sweep& s, double level) {
  std::array<char, 64> text{};
  const auto* format = s.flags.by_rate ? "%g requests/s" : level == 1 ? "%.0f user" : "%.0f users";
  std::snprintf(text.data(), text.size(), format, level);
  return text.data();
}

/// Runs `target` at `level` for `length`, its rows after a line saying what runs.
statistics::Summary run_at(const Sweep& s, const std::string& target, double level,
                           const std::string& length, const std::string& what) {
  std::fprintf(s.rows, "\n-- %s: %s for %s --\n", what.c_str(), level_words(s, level).c_str(),
               length.c_str());
  const auto one = one_run(s, target, level, length);
  return run_engine(make_run_config(one), one, s.rows, *s.run_hooks);
}

/// One level: the warm-up, then the counted step; nullopt when Ctrl-C stopped either.
std::optional<sweep::StepFigures> run_level(const Sweep& s, const std::string& target, double level,
                                            std::size_t number) {
  using statistics::StopReason;
  if (s.signals->stopped()) return std::nullopt;
  if (!s.timing.warmup.empty()) {
    const auto warm = run_at(s, target, level, s.timing.warmup, "warm-up, not counted");
    if (warm.stop_reason == StopReason::interrupted || s.signals->stopped()) return std::nullopt;
  }
  const auto step = run_at(s, target, level, s.timing.step, "step " + std::to_string(number));
  if (step.stop_reason == StopReason::interrupted) return std::nullopt;
  return sweep::figures_of(level, step);
}

bool by_level(const sweep::StepFigures& a, const sweep::StepFigures& b) {
  return a.level < b.level;
}

/// The listed levels, in order; false when Ctrl-C stopped them.
bool run_listed(const Sweep& s, const sweep::Slo& slo, sweep::TargetSweep& target) {
  for (const double level : s.flags.levels) {
    auto step = run_level(s, target.url, level, target.steps.size() + 1);
    if (!step) break;
    target.steps.push_back(*step);
    target.knee = sweep::find_knee(target.steps, slo);
    s.step_done();
  }
  target.knee = sweep::find_knee(target.steps, slo);
  return target.steps.size() == s.flags.levels.size();
}

sweep::SearchBounds bounds_for(const Sweep& s, const std::string& target) {
  if (s.flags.by_rate) return {first_auto_rate, limits::max_rate, 12, false};
  const auto most = most_users_for(make_run_config(one_run(s, target, 1, s.timing.step)));
  return {1, static_cast<double>(std::min<std::uint64_t>(most, limits::max_users)), 12, true};
}

/// AutoSearch's levels; false when Ctrl-C stopped them.
bool run_search(const Sweep& s, const sweep::Slo& slo, sweep::TargetSweep& target) {
  sweep::AutoSearch search(bounds_for(s, target.url), slo);
  bool whole = true;
  while (auto level = search.next()) {
    auto step = run_level(s, target.url, *level, target.steps.size() + 1);
    if (!step) {
      whole = false;
      break;
    }
    search.record(*step);
    target.steps.push_back(*step);
    s.step_done();
  }
  std::sort(target.steps.begin(), target.steps.end(), by_level);
  target.knee = search.knee_in(target.steps);
  return whole;
}

/// --sweep-rate: a step that sends a handful of requests (0.1 at 0.5/s for 200 ms) measures no
/// rate and no knee, so the lowest level must fill its step with `fewest` requests at least.
void check_step_fills(const Sweep& s) {
  constexpr double fewest = 10;
  if (!s.flags.by_rate) return;
  const double lowest = s.flags.automatic ? first_auto_rate : s.flags.levels.front();
  const double sent = lowest * s.timing.step_s;
  if (sent >= fewest) return;
  throw UsageError("--sweep-rate: a step of " + report::format_at_least(s.timing.step_s, 0) +
                   " s at " + report::format_at_least(lowest, 0) + " requests/s sends " +
                   report::format_at_least(sent, 0) + ", too few to judge (a step needs " +
                   report::format_at_least(fewest, 0) + "): make -z at least " +
                   report::format_at_least(fewest / lowest, 0) + "s, or the lowest rate higher");
}

/// The line that says, before any load, how long the sweep may take.
void announce_sweep(const Sweep& s, std::size_t targets) {
  const double per_level = s.timing.warmup_s + s.timing.step_s;
  const auto levels = s.flags.automatic ? std::size_t{12} : s.flags.levels.size();
  const auto seconds = [](double value) { return report::format_at_least(value, 0); };
  std::fprintf(s.rows,
               "Sweep: %s%zu level%s a target x %zu target%s, %s s each (%s s warm-up, not "
               "counted): %s%s s in all\n",
               s.flags.automatic ? "up to " : "", levels, levels == 1 ? "" : "s", targets,
               targets == 1 ? "" : "s", seconds(per_level).c_str(),
               seconds(s.timing.warmup_s).c_str(), s.flags.automatic ? "at most " : "",
               seconds(per_level * static_cast<double>(levels * targets)).c_str());
}

}  // namespace

sweep::SweepResult run_sweep(const Options& options, std::FILE* rows, const SweepHooks& hooks) {
  StopSignals signals;
  sweep::SweepResult result;
  const Sweep s{options, parse_sweep(options), timing_of(options), rows, &signals, &hooks.run, [&] {
                  if (hooks.on_step) hooks.on_step(result);
                }};
  check_step_fills(s);
  const auto targets = targets_of(options);
  // Every target is checked before the first sends anything: a typo in the last -u should not
  // cost the minutes the others take.
  for (const auto& target : targets) (void)make_run_config(one_run(s, target, 1, s.timing.step));
  result.by_rate = s.flags.by_rate;
  result.automatic = s.flags.automatic;
  result.step_s = s.timing.step_s;
  result.warmup_s = s.timing.warmup_s;
  result.slo = options.slo.empty() ? sweep::Slo{} : parse_slo(options.slo);
  announce_sweep(s, targets.size());
  for (const auto& url : targets) {
    auto& target = result.targets.emplace_back();
    target.url = url;
    const bool whole =
        s.flags.automatic ? run_search(s, result.slo, target) : run_listed(s, result.slo, target);
    if (!whole) {
      result.interrupted = true;
      break;
    }
  }
  if (options.page_views > 0) {
    const auto& first = result.targets.front();
    const double measured = first.knee.step ? first.steps[*first.knee.step].qps : 0;
    result.capacity = statistics::plan_capacity(
        {options.page_views, options.peak_share, options.peak_time_share, measured});
  }
  return result;
}

}  // namespace stampede::cmd
