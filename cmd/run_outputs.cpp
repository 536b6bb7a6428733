// RunOutputs: the outputs opened at the start, fed during the run, written at its end.
#include "cmd/run_outputs.hpp"

#include <csignal>
#include <cstdio>

#include "cmd/page_origin.hpp"
#include "model/version.hpp"
#include "report/csv_report.hpp"
#include "report/gnuplot_report.hpp"
#include "report/html_report.hpp"
#include "report/prometheus_report.hpp"
#include "report/saved_run.hpp"

namespace stampede::cmd {
namespace {

/// The run so far with each threshold's verdict so far: the dashboard shows them as they stand.
statistics::Summary judged(const statistics::Summary& now,
                           std::span<const statistics::Threshold> thresholds) {
  statistics::Summary copy = now;
  for (const auto& threshold : thresholds) {
    copy.thresholds.push_back(statistics::judge(threshold, now));
  }
  return copy;
}

}  // namespace

RunOutputs::RunOutputs(const Options& options, std::span<const char* const> args,
                       const std::vector<NamedFile>& inputs)
    : args_(args) {
  refuse_clashes(given_files({{"-e", &options.percentiles_file},
                              {"-g", &options.gnuplot_file},
                              {"--html", &options.html_file},
                              {"--save", &options.save_file}}),
                 inputs);
  if (!options.percentiles_file.empty()) percentiles_.emplace(options.percentiles_file, "-e");
  if (!options.gnuplot_file.empty()) {
    gnuplot_.emplace(options.gnuplot_file, "-g");
    gnuplot_->append(report::gnuplot_header());
  }
  if (!options.html_file.empty()) html_.emplace(options.html_file, "--html");
  if (!options.save_file.empty()) save_.emplace(options.save_file, "--save");
  if (!options.prometheus.empty()) {
    metrics_.emplace(options.prometheus);
    // Said always, as port 0 leaves the port to the kernel.
    std::fprintf(stderr, "stampede: --prometheus: metrics at %s\n", metrics_->url().c_str());
  }
  if (!options.dashboard.empty()) {
    dashboard_.emplace(options.dashboard, page_origin(args_));
    std::fprintf(stderr, "stampede: --dashboard: %s\n", dashboard_->url().c_str());
  }
}

RunHooks RunOutputs::hooks(std::span<const statistics::Threshold> thresholds, bool abort_on_fail) {
  RunHooks hooks{abort_on_fail ? thresholds : decltype(thresholds){}, {}, {}, {}};
  if (gnuplot_) {
    hooks.on_requests = [this](auto requests, auto started) {
      gnuplot_->append(report::gnuplot_lines(requests, started));
    };
  }
  if (metrics_ || dashboard_) {
    hooks.on_second = [this, thresholds](const statistics::Summary& now) {
      if (metrics_) metrics_->publish(report::prometheus_text(now));
      if (dashboard_) dashboard_->publish(judged(now, thresholds));
    };
  }
  if (dashboard_) {
    hooks.on_engine = [this](server::Engine* engine) {
      if (engine == nullptr) {
        dashboard_->set_stop({});
      } else {
        dashboard_->set_stop([engine] { engine->interrupt(); });
      }
    };
  }
  return hooks;
}

SweepHooks RunOutputs::sweep_hooks() {
  SweepHooks hooks;
  if (!dashboard_) return hooks;
  // From the first second on, a run of the sweep is under way, so its StopSignals, which the
  // whole sweep keeps, take a SIGINT: the stop button is Ctrl-C's own path.
  hooks.run.on_second = [this](const statistics::Summary& now) {
    dashboard_->publish(statistics::Summary(now));
    dashboard_->set_stop([] { std::raise(SIGINT); });
  };
  hooks.on_step = [this](const server::sweep::SweepResult& so_far) { dashboard_->publish(so_far); };
  return hooks;
}

void RunOutputs::finish(const statistics::Summary& summary) {
  if (metrics_) metrics_->publish(report::prometheus_text(summary));
  if (gnuplot_) gnuplot_->close();
  if (percentiles_) percentiles_->write(report::percentiles_csv(summary));
  if (html_) html_->write(report::html_report(summary, page_origin(args_)));
  if (dashboard_) dashboard_->finish(summary);
  if (save_) {
    const report::RunSource source{
        {args_.begin(), args_.end()}, model::version, summary.info.started_at};
    save_->write(report::saved_run_text({summary, {source}}));
  }
}

void RunOutputs::finish(const server::sweep::SweepResult& sweep) {
  if (dashboard_) dashboard_->finish(sweep);
  if (html_) html_->write(report::html_sweep(sweep, page_origin(args_)));
}

}  // namespace stampede::cmd
