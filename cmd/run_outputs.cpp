// RunOutputs: the outputs opened at the start, fed during the run, written at its end.
#include "cmd/run_outputs.hpp"

#include <cstdio>

#include "cmd/page_origin.hpp"
#include "model/version.hpp"
#include "report/csv_report.hpp"
#include "report/gnuplot_report.hpp"
#include "report/html_report.hpp"
#include "report/prometheus_report.hpp"
#include "report/saved_run.hpp"

namespace stampede::cmd {

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
}

RunHooks RunOutputs::hooks(std::span<const statistics::Threshold> abort_on) {
  RunHooks hooks{abort_on, {}, {}};
  if (gnuplot_) {
    hooks.on_requests = [this](auto requests, auto started) {
      gnuplot_->append(report::gnuplot_lines(requests, started));
    };
  }
  if (metrics_) {
    hooks.on_second = [this](const statistics::Summary& now) {
      metrics_->publish(report::prometheus_text(now));
    };
  }
  return hooks;
}

void RunOutputs::finish(const statistics::Summary& summary) {
  if (metrics_) metrics_->publish(report::prometheus_text(summary));
  if (gnuplot_) gnuplot_->close();
  if (percentiles_) percentiles_->write(report::percentiles_csv(summary));
  if (html_) html_->write(report::html_report(summary, page_origin(args_)));
  if (save_) {
    const report::RunSource source{
        {args_.begin(), args_.end()}, model::version, summary.info.started_at};
    save_->write(report::saved_run_text({summary, {source}}));
  }
}

void RunOutputs::finish(const server::sweep::SweepResult& sweep) {
  if (html_) html_->write(report::html_sweep(sweep, page_origin(args_)));
}

}  // namespace stampede::cmd
