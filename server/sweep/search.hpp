// AutoSearch: --sweep auto's levels, doubling until a step breaks, then bisecting.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "server/sweep/knee.hpp"

#include "server/sweep/slo.hpp"
#include "server/sweep/step.hpp"

namespace stampede::server::sweep {

/// The bounds of a search: where it starts, how high it may go, how many steps it may take.
struct SearchBounds {
  double first = 1;  ///< the first level
  double most = 1;   ///< the highest level it may try (the machine's users, or the top rate)
  std::size_t max_steps = 12;
  bool whole = true;  ///< levels are whole numbers (users)
};

/// Finds the knee by itself: the levels double from `first` while each step holds (meets the
/// SLO and scales over the last step that held); once one breaks, they bisect between the
/// highest that held and the lowest that broke until those are within a tenth (or 1 user) of
/// each other. At most `max_steps` steps, so the time it takes is known before it starts.
class AutoSearch {
 public:
  AutoSearch(SearchBounds bounds, Slo slo);

  /// The next level to run; nullopt when the search is over.
  [[nodiscard]] std::optional<double> next() const;
  /// The step at the level next() gave, run.
  void record(const StepFigures& step);

  /// The highest level that held (its figures); nullopt while none has.
  [[nodiscard]] const std::optional<StepFigures>& held() const { return held_; }

  /// The knee the search found, as indexes into `steps`: every step recorded, in rising level
  /// order. Not find_knee() over them: each step was judged against the highest that held
  /// before it, which a bisection's neighbours in level order are not.
  [[nodiscard]] Knee knee_in(const std::vector<StepFigures>& steps) const;

 private:
  [[nodiscard]] bool close_enough() const;

  SearchBounds bounds_;
  Slo slo_;
  std::optional<StepFigures> held_;
  std::optional<double> broke_;  ///< the lowest level that broke
  std::string why_;              ///< what broke it
  std::size_t steps_ = 0;
};

}  // namespace stampede::server::sweep
