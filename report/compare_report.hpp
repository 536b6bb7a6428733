// compare_text(), compare_json(): `stampede compare`'s table of two runs and its verdict.
#pragma once

#include <string>

#include "server/statistics/run_compare.hpp"

namespace stampede::report {

/// The names the two runs are shown under (their files).
struct ComparedNames {
  std::string a;
  std::string b;
};

/// A table: each figure for A and B, the change, the bound and whether B kept it; then one line
/// saying whether B regressed.
std::string compare_text(const statistics::RunComparison& comparison, const ComparedNames& names);

/// The same as one JSON document: {"a", "b", "passed", "figures": [{figure, unit, a, b, change,
/// limit, passed}]}.
std::string compare_json(const statistics::RunComparison& comparison, const ComparedNames& names);

}  // namespace stampede::report
