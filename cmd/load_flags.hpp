// The load run's table of flags (load_flags.cpp): what parse_options() binds and checks.
#pragma once

#include <span>

#include "cmd/flag_table.hpp"

namespace stampede::cmd {

/// Every flag of a load run, as the parser, the help and the references read them.
std::span<const Flag<Options>> load_flags();

}  // namespace stampede::cmd
