// sweep_text(), sweep_json(): the seeds' concurrency table, with the knee named and explained.
#include "report/sweep_report.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "report/capacity_report.hpp"
#include "report/report_format.hpp"

namespace stampede::report {

using server::sweep::Knee;
using server::sweep::StepFigures;
using server::sweep::SweepResult;
using server::sweep::TargetSweep;

namespace {

std::string level_text(double level, bool by_rate) {
  return by_rate ? format_fixed(level, level == std::floor(level) ? 0 : 3) + "/s"
                 : format_fixed(level, 0);
}

/// A level in a sentence: "1 user", "4 users", "1000 requests/s".
std::string level_words(double level, bool by_rate) {
  if (by_rate) return format_fixed(level, level == std::floor(level) ? 0 : 3) + " requests/s";
  return format_fixed(level, 0) + (level == 1 ? " user" : " users");
}

std::string cell(double value, int decimals, std::size_t width = 11) {
  return pad_left(format_fixed(value, decimals), width);
}

std::string table_header(bool by_rate) {
  return pad_left(by_rate ? "rate" : "users", 10) + pad_left("QPS", 11) + pad_left("mean ms", 11) +
         pad_left("p50 ms", 11) + pad_left("p90 ms", 11) + pad_left("p99 ms", 11) +
         pad_left("errors", 9) + pad_left("ms/request", 12) + '\n';
}

std::string row(const StepFigures& step, bool by_rate) {
  return pad_left(level_text(step.level, by_rate), 10) + cell(step.qps, 2) + cell(step.mean_ms, 2) +
         cell(step.p50_ms, 2) + cell(step.p90_ms, 2) + cell(step.p99_ms, 2) +
         pad_left(format_fixed(step.error_share * 100, 2) + "%", 9) +
         cell(step.time_per_request_ms, 3, 12);
}

std::string knee_text(const TargetSweep& target, bool by_rate) {
  const Knee& knee = target.knee;
  const auto& steps = target.steps;
  std::string text = pad_right("Knee:", 24);
  if (!knee.step && !knee.broke) return text + "none: no step ran\n";
  if (!knee.step) {
    return text + "below " + level_words(steps[*knee.broke].level, by_rate) +
           ": the first step broke (" + knee.why + ")\n";
  }
  const auto& held = steps[*knee.step];
  const auto figures = level_words(held.level, by_rate) + ", " + format_fixed(held.qps, 2) +
                       " successful requests/s";
  if (!knee.broke) return text + "not reached: every step held, up to " + figures + '\n';
  return text + figures + "\n" + pad_right("Next step broke:", 24) +
         level_words(steps[*knee.broke].level, by_rate) + ": " + knee.why + '\n';
}

std::string target_text(const TargetSweep& target, bool by_rate) {
  std::string text = "\nSweep of " + printable(target.url) + '\n' + table_header(by_rate);
  for (std::size_t i = 0; i < target.steps.size(); ++i) {
    text += row(target.steps[i], by_rate);
    if (target.knee.step == i) text += "  <- knee";
    if (target.knee.broke == i) text += "  <- broke";
    text += '\n';
  }
  return text + knee_text(target, by_rate);
}

/// The levels every target ran (explicit levels are the same for all; a search's may differ).
std::vector<double> shared_levels(const SweepResult& sweep) {
  std::vector<double> levels;
  for (const auto& step : sweep.targets.front().steps) levels.push_back(step.level);
  for (const auto& target : sweep.targets) {
    std::erase_if(levels, [&](double level) {
      return std::none_of(target.steps.begin(), target.steps.end(),
                          [level](const auto& s) { return s.level == level; });
    });
  }
  return levels;
}

double qps_at(const TargetSweep& target, double level) {
  for (const auto& step : target.steps) {
    if (step.level == level) return step.qps;
  }
  return 0;
}

std::string side_by_side(const SweepResult& sweep) {
  std::string text = "\nSide by side, successful requests/s:\n";
  for (std::size_t t = 0; t < sweep.targets.size(); ++t) {
    text += "  #" + std::to_string(t + 1) + "  " + printable(sweep.targets[t].url) + '\n';
  }
  text += pad_left(sweep.by_rate ? "rate" : "users", 10);
  for (std::size_t t = 0; t < sweep.targets.size(); ++t) {
    text += pad_left("#" + std::to_string(t + 1), 11);
  }
  text += pad_left("best", 7) + '\n';
  for (const double level : shared_levels(sweep)) {
    text += pad_left(level_text(level, sweep.by_rate), 10);
    std::size_t best = 0;
    for (std::size_t t = 0; t < sweep.targets.size(); ++t) {
      const double qps = qps_at(sweep.targets[t], level);
      text += cell(qps, 2);
      if (qps > qps_at(sweep.targets[best], level)) best = t;
    }
    text += pad_left("#" + std::to_string(best + 1), 7) + '\n';
  }
  return text;
}

nlohmann::json step_json(const std::string& url, const StepFigures& step) {
  const auto r = [](double value) { return round_to(value, 3); };
  return {{"url", url},
          {"level", r(step.level)},
          {"qps", r(step.qps)},
          {"mean_ms", r(step.mean_ms)},
          {"p50_ms", r(step.p50_ms)},
          {"p90_ms", r(step.p90_ms)},
          {"p99_ms", r(step.p99_ms)},
          {"error_share", round_to(step.error_share, 6)},
          {"time_per_request_ms", r(step.time_per_request_ms)},
          {"requests", step.requests}};
}

nlohmann::json knee_json(const TargetSweep& target) {
  const Knee& knee = target.knee;
  nlohmann::json json = {{"url", target.url},
                         {"level", nullptr},
                         {"qps", nullptr},
                         {"broke_at", nullptr},
                         {"why", knee.why}};
  if (knee.step) {
    json["level"] = target.steps[*knee.step].level;
    json["qps"] = round_to(target.steps[*knee.step].qps, 3);
  }
  if (knee.broke) json["broke_at"] = target.steps[*knee.broke].level;
  return json;
}

}  // namespace

std::string sweep_text(const SweepResult& sweep) {
  std::string text = "\nSweep by " + std::string(sweep.by_rate ? "rate" : "users") +
                     (sweep.automatic ? " (auto)" : "") + ": " + format_fixed(sweep.step_s, 1) +
                     " s a step after " + format_fixed(sweep.warmup_s, 1) + " s of warm-up";
  const auto slo = sweep.slo.text();
  text += "; QPS counts successful requests;";
  text += slo.empty() ? " the knee is where it stops rising\n"
                      : " the knee is where the SLO (" + slo + ") breaks or QPS stops rising\n";
  if (sweep.interrupted) text += "Interrupted (Ctrl-C): the steps run until then.\n";
  for (const auto& target : sweep.targets) text += target_text(target, sweep.by_rate);
  if (sweep.targets.size() > 1) text += side_by_side(sweep);
  if (sweep.capacity) {
    text += capacity_text(*sweep.capacity, "the knee of " + printable(sweep.targets.front().url));
  }
  return text;
}

std::string sweep_json(const SweepResult& sweep) {
  // Flat lists, each entry naming its target: `jq '.sweep.steps[] | [.level, .qps]'` reads a
  // one-target sweep as it reads several.
  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json knees = nlohmann::json::array();
  for (const auto& target : sweep.targets) {
    for (const auto& step : target.steps) steps.push_back(step_json(target.url, step));
    knees.push_back(knee_json(target));
  }
  nlohmann::json json;
  json["sweep"] = {{"by", sweep.by_rate ? "rate" : "users"},
                   {"automatic", sweep.automatic},
                   {"step_s", sweep.step_s},
                   {"warmup_s", sweep.warmup_s},
                   {"slo", sweep.slo.text()},
                   {"interrupted", sweep.interrupted},
                   {"targets",
                    [&] {
                      nlohmann::json urls = nlohmann::json::array();
                      for (const auto& target : sweep.targets) urls.push_back(target.url);
                      return urls;
                    }()},
                   {"steps", steps},
                   {"knee", knees}};
  if (sweep.capacity) json["capacity"] = capacity_json(*sweep.capacity);
  return json.dump(2) + '\n';
}

}  // namespace stampede::report
