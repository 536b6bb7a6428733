// parse_sweep(), parse_slo(): each level and bound checked, with the flag's own example.
#include "cmd/sweep_flags.hpp"

#include <string>

#include "cmd/limits.hpp"
#include "cmd/number_word.hpp"
#include "cmd/threshold_flag.hpp"

namespace stampede::cmd {

namespace {

constexpr std::size_t max_levels = 100;

/// Calls `each` with every comma-separated piece of `text`.
template <class Each>
void for_each_piece(std::string_view text, Each each) {
  for (std::size_t from = 0; from <= text.size();) {
    auto comma = text.find(',', from);
    if (comma == std::string_view::npos) comma = text.size();
    each(text.substr(from, comma - from));
    from = comma + 1;
  }
}

double parse_level(std::string_view text, bool by_rate) {
  const auto flag = by_rate ? std::string("--sweep-rate") : std::string("--sweep");
  const auto value = number_of(text);
  if (by_rate && (!value || *value < limits::min_rate || *value > limits::max_rate)) {
    throw UsageError(flag + ": '" + std::string(text) +
                     "' is not a rate from 0.001 to 10000000 requests a second (as in "
                     "--sweep-rate 1000,2000,4000, or auto)");
  }
  if (!by_rate && (!value || *value < 1 || *value > static_cast<double>(limits::max_users) ||
                   *value != static_cast<double>(static_cast<std::int64_t>(*value)))) {
    throw UsageError(flag + ": '" + std::string(text) +
                     "' is not a whole number of users from 1 to 10000000 (as in --sweep "
                     "80,100,150,200, or auto)");
  }
  return *value;
}

[[noreturn]] void refuse_bound(std::string_view bound) {
  throw UsageError("--slo: '" + std::string(bound) +
                   "' is not a bound (bounds are p50, p90, p99 or mean below a length of time, "
                   "or errors below a share, as in --slo 'p99<100ms,errors<1%')");
}

}  // namespace

SweepFlags parse_sweep(const Options& options) {
  SweepFlags sweep;
  sweep.by_rate = !options.sweep_rate.empty();
  const std::string_view text = sweep.by_rate ? options.sweep_rate : options.sweep;
  if (text == "auto") {
    sweep.automatic = true;
    return sweep;
  }
  for_each_piece(text, [&](std::string_view piece) {
    const double level = parse_level(piece, sweep.by_rate);
    if (!sweep.levels.empty() && level <= sweep.levels.back()) {
      throw UsageError(std::string(sweep.by_rate ? "--sweep-rate" : "--sweep") + ": '" +
                       std::string(piece) + "' is not above the level before it (levels rise)");
    }
    sweep.levels.push_back(level);
  });
  if (sweep.levels.size() > max_levels) throw UsageError("--sweep: more than 100 levels");
  return sweep;
}

server::sweep::Slo parse_slo(std::string_view text) {
  using statistics::Figure;
  server::sweep::Slo slo;
  // Each bound in --threshold's grammar (the same lengths of time and shares), kept to what a
  // step measures: p50, p90, p99 or the mean below a length of time, errors below a share.
  for_each_piece(text, [&](std::string_view bound) {
    statistics::Threshold threshold;
    try {
      threshold = parse_threshold(bound);
    } catch (const UsageError&) {
      refuse_bound(bound);
    }
    if (threshold.step || threshold.comparison != statistics::Comparison::less) refuse_bound(bound);
    if (threshold.figure == Figure::error_share) {
      if (threshold.bound <= 0 || threshold.bound > 1) refuse_bound(bound);
      slo.errors_below = threshold.bound;
      return;
    }
    const double q = threshold.percentile;
    const bool percentile =
        threshold.figure == Figure::percentile && (q == 50 || q == 90 || q == 99);
    if (!percentile && threshold.figure != Figure::mean) refuse_bound(bound);
    slo.latency.push_back({percentile ? q : 0, threshold.bound});
  });
  return slo;
}

}  // namespace stampede::cmd
