// parse_sweep(), parse_slo(): each level and bound checked, with the flag's own example.
#include "cmd/sweep_flags.hpp"

#include <string>

#include "cmd/duration_flag.hpp"
#include "cmd/limits.hpp"
#include "cmd/number_word.hpp"

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
  server::sweep::Slo slo;
  for_each_piece(text, [&](std::string_view bound) {
    const auto less = bound.find('<');
    if (less == std::string_view::npos) refuse_bound(bound);
    const auto name = bound.substr(0, less);
    auto limit = bound.substr(less + 1);
    if (name == "errors") {
      if (!limit.ends_with('%')) refuse_bound(bound);
      limit.remove_suffix(1);
      const auto share = number_of(limit);
      if (!share || *share <= 0 || *share > 100) refuse_bound(bound);
      slo.errors_below = *share / 100;
      return;
    }
    const double percentile = name == "p50"    ? 50
                              : name == "p90"  ? 90
                              : name == "p99"  ? 99
                              : name == "mean" ? 0
                                               : -1;
    if (percentile < 0) refuse_bound(bound);
    const auto below = parse_duration(limit, "--slo");
    slo.latency.push_back({percentile, static_cast<double>(below.count())});
  });
  return slo;
}

}  // namespace stampede::cmd
