// A sweep's closing report: each target's steps and knee, as text or as one JSON document.
#pragma once

#include <string>

#include "server/sweep/sweep_result.hpp"

namespace stampede::report {

/// The text report: per target a table of its steps (level, QPS, latency, errors, ab's time
/// per request) and its knee with what broke the step after it; with several targets, their
/// QPS side by side at each level they share; then the capacity plan (--pv).
std::string sweep_text(const server::sweep::SweepResult& sweep);

/// The same as one JSON document (docs/json-report.md, "A sweep"), ending in '\n'.
std::string sweep_json(const server::sweep::SweepResult& sweep);

}  // namespace stampede::report
