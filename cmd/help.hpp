// Help as a terminal shows it: a command's --help, and `stampede help FLAG` for one flag.
#pragma once

#include <span>
#include <string>

#include "cmd/flag_doc.hpp"

namespace stampede::cmd {

/// `stampede COMMAND --help`: the usage, then each section's flags with their help and
/// defaults, wrapped to fit 100 columns; the load run's adds examples and the other commands.
std::string command_help(const CommandDoc& command);

/// `stampede help FLAG`: every flag spelled FLAG (with or without its dashes), in every command
/// that has one: its help, the values it takes, its default. Empty when none is.
std::string flag_help(std::string_view flag);

/// `stampede help [FLAG | COMMAND | --markdown | --readme | --man]`: prints the help asked for
/// and returns 0; throws UsageError for a flag or command there is none of.
int run_help(std::span<const char* const> args);

}  // namespace stampede::cmd
