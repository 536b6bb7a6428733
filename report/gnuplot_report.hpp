// -g: ab's gnuplot file, a line per request, its columns ab's so that plots made for ab work.
#pragma once

#include <chrono>
#include <span>
#include <string>

#include "server/statistics/request_line.hpp"

namespace stampede::report {

/// The header line: ab's six columns, then stampede's status and error.
std::string gnuplot_header();

/// A line per request, tab-separated: starttime (as ctime prints it, UTC), seconds (since the
/// epoch), ctime (connect), dtime (the rest: latency - connect), ttime (latency) and wait
/// (to the first response byte), in milliseconds to the microsecond where ab rounds to whole
/// ones; then the status (0 if none) and the error kind ("ok" for none). `run_started` is the
/// run's start by the wall clock.
std::string gnuplot_lines(std::span<const statistics::RequestLine> requests,
                          std::chrono::system_clock::time_point run_started);

}  // namespace stampede::report
