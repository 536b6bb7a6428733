// parse_threshold(): the figure, the comparison and the bound, each checked with an example.
#include "cmd/threshold_flag.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "cmd/number_word.hpp"
#include "cmd/options.hpp"

namespace stampede::cmd {

namespace {

using statistics::Comparison;
using statistics::Figure;

[[noreturn]] void refuse_threshold(std::string_view text, const std::string& why) {
  throw UsageError("--threshold '" + std::string(text) + "': " + why +
                   " (as in 'p99<200ms', 'errors<0.5%', 'rps>2000', 'step2.p99<50ms')");
}

/// Where the comparison is in a threshold, how long it is (< or <=), and which it is.
struct Operator {
  std::size_t at = 0;
  std::size_t length = 1;
  Comparison comparison = Comparison::less;
};

/// The comparison at the first of < and > in `text`; nullopt when there is none.
std::optional<Operator> find_operator(std::string_view text) {
  const auto at = text.find_first_of("<>");
  if (at == std::string_view::npos) return std::nullopt;
  const bool equal = at + 1 < text.size() && text[at + 1] == '=';
  const auto comparison = text[at] == '<'
                              ? (equal ? Comparison::less_equal : Comparison::less)
                              : (equal ? Comparison::greater_equal : Comparison::greater);
  return Operator{at, equal ? std::size_t{2} : std::size_t{1}, comparison};
}

/// "step2." off the front of `name` into `threshold.step` (0-based).
void take_step(std::string_view text, std::string_view& name, statistics::Threshold& threshold) {
  if (!name.starts_with("step")) return;
  const auto dot = name.find('.');
  const auto step = number_of(name.substr(4, dot == std::string_view::npos ? 0 : dot - 4));
  if (dot == std::string_view::npos || !step || *step < 1 || *step != static_cast<int>(*step)) {
    refuse_threshold(text, "a step is step1, step2... before the figure");
  }
  threshold.step = static_cast<std::size_t>(*step) - 1;
  name.remove_prefix(dot + 1);
}

/// p99 -> 99, p999 -> 99.9, p9999 -> 99.99, p99.5 -> 99.5.
std::optional<double> percentile_of(std::string_view name) {
  if (!name.starts_with('p')) return std::nullopt;
  const auto digits = name.substr(1);
  auto value = number_of(digits);
  if (value && digits.size() > 2 && digits.starts_with("99") &&
      digits.find('.') == std::string_view::npos) {
    value = std::stod("99." + std::string(digits.substr(2)));
  }
  if (!value || *value <= 0 || *value > 100) return std::nullopt;
  return value;
}

/// A length of time in milliseconds: 250us, 200ms, 1.5s, 2m; a bare number is milliseconds.
std::optional<double> milliseconds(std::string_view text) {
  static constexpr std::pair<std::string_view, double> units[] = {
      {"us", 0.001}, {"ms", 1}, {"s", 1000}, {"m", 60'000}};
  for (const auto& [unit, scale] : units) {
    if (text.ends_with(unit)) {
      const auto value = number_of(text.substr(0, text.size() - unit.size()));
      return value && *value >= 0 ? std::optional(*value * scale) : std::nullopt;
    }
  }
  const auto value = number_of(text);
  return value && *value >= 0 ? value : std::nullopt;
}

void read_bound(std::string_view text, std::string_view bound, statistics::Threshold& t) {
  if (t.figure == Figure::rps) {
    const auto value = number_of(bound);
    if (!value || *value < 0)
      refuse_threshold(text, "rps is bounded by a number of requests a second");
    t.bound = *value;
  } else if (t.figure == Figure::error_share) {
    bound.remove_suffix(1);
    const auto value = number_of(bound);
    if (!value || *value < 0 || *value > 100)
      refuse_threshold(text, "errors in % are from 0% to 100%");
    t.bound = *value / 100;
  } else if (t.figure == Figure::error_count) {
    const auto value = number_of(bound);
    if (!value || *value < 0 || *value != static_cast<double>(static_cast<std::int64_t>(*value))) {
      refuse_threshold(text, "errors are bounded by a share (0.5%) or a whole number of requests");
    }
    t.bound = *value;
  } else {
    const auto value = milliseconds(bound);
    if (!value)
      refuse_threshold(text, "a latency is bounded by a length of time: 200ms, 1.5s, 250us");
    t.bound = *value;
  }
}

}  // namespace

statistics::Threshold parse_threshold(std::string_view text) {
  statistics::Threshold threshold;
  threshold.text = std::string(text);
  const auto op = find_operator(text);
  if (!op) refuse_threshold(text, "no comparison (<, <=, > or >=)");
  threshold.comparison = op->comparison;
  auto name = text.substr(0, op->at);
  const auto bound = text.substr(op->at + op->length);
  take_step(text, name, threshold);
  if (const auto percentile = percentile_of(name)) {
    threshold.figure = Figure::percentile;
    threshold.percentile = *percentile;
  } else if (name == "mean" || name == "avg") {
    threshold.figure = Figure::mean;
  } else if (name == "min" || name == "max") {
    threshold.figure = name == "min" ? Figure::min : Figure::max;
  } else if (name == "rps") {
    threshold.figure = Figure::rps;
  } else if (name == "errors") {
    threshold.figure = bound.ends_with('%') ? Figure::error_share : Figure::error_count;
  } else {
    refuse_threshold(text, "unknown figure '" + std::string(name) +
                               "' (p50, p90, p99, p999, mean, min, max, rps or errors)");
  }
  read_bound(text, bound, threshold);
  return threshold;
}

}  // namespace stampede::cmd
