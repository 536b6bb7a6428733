// RunOutputs: what a run writes besides stdout (-e, -g, --html, --save, --prometheus,
// --dashboard), each opened before anything is sent, so a path or address it cannot use is a
// usage error.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "cmd/dashboard.hpp"
#include "cmd/file_clash.hpp"
#include "cmd/metrics_endpoint.hpp"
#include "cmd/options.hpp"
#include "cmd/output_file.hpp"
#include "cmd/run_engine.hpp"
#include "cmd/run_sweep.hpp"
#include "server/sweep/sweep_result.hpp"

namespace stampede::cmd {

/// Opens each output `options` asks for; `args` is the command line the pages and saved runs
/// record.
class RunOutputs {
 public:
  /// Throws UsageError, with nothing opened, when an output is another or one of `inputs`.
  RunOutputs(const Options& options, std::span<const char* const> args,
             const std::vector<NamedFile>& inputs);

  /// Hooks that feed -g's file, --prometheus's endpoint and the dashboard (with `thresholds`'
  /// verdicts so far) while the run goes, give the dashboard's stop button the engine, and
  /// with `abort_on_fail` stop the run once a threshold can no longer pass; they refer to
  /// this object, which must outlive the run.
  RunHooks hooks(std::span<const statistics::Threshold> thresholds, bool abort_on_fail);
  /// A sweep's: the dashboard's, its stop button a Ctrl-C (the sweep stops with the steps done).
  SweepHooks sweep_hooks();
  /// --save: each second keeps its latency histogram.
  [[nodiscard]] bool keeps_seconds() const { return save_.has_value(); }
  /// Writes every file of a run that ended.
  void finish(const statistics::Summary& summary);
  /// Writes a sweep's page (--html).
  void finish(const server::sweep::SweepResult& sweep);

 private:
  std::span<const char* const> args_;
  std::optional<OutputFile> percentiles_;
  std::optional<OutputFile> gnuplot_;
  std::optional<OutputFile> html_;
  std::optional<OutputFile> save_;
  std::optional<MetricsEndpoint> metrics_;
  std::optional<Dashboard> dashboard_;
};

}  // namespace stampede::cmd
