// FlowShare: one flow of a weighted mix (several -p FILE:WEIGHT) among a run's steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace stampede::model {

/// A flow of a mix: its steps are `count` of the run's steps from `first`, and each round a
/// user picks it with probability weight / (the weights' sum).
struct FlowShare {
  std::string name;  ///< the file it came from, as given to -p
  std::size_t first = 0;
  std::size_t count = 0;
  std::uint64_t weight = 1;
  friend bool operator==(const FlowShare&, const FlowShare&) = default;
};

}  // namespace stampede::model
