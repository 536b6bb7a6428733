// page_origin(): what an --html page says about where it came from.
#pragma once

#include <span>

#include "report/html_report.hpp"

namespace stampede::cmd {

/// `args` (argv without the program name) and now, in ISO 8601 UTC to the second.
report::PageOrigin page_origin(std::span<const char* const> args);

}  // namespace stampede::cmd
