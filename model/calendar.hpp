// Dates of the Gregorian calendar as days since 1970, for the date formats curl and cookies read.
#pragma once

#include <chrono>

namespace stampede::model {

/// Days from 1970-01-01 to `year`-`month`-`day` (month 1-12, day 1-31).
inline long long days_since_epoch(long long year, unsigned month, unsigned day) {
  const std::chrono::year_month_day date{std::chrono::year(static_cast<int>(year)),
                                         std::chrono::month(month), std::chrono::day(day)};
  return std::chrono::sys_days(date).time_since_epoch().count();
}

}  // namespace stampede::model
