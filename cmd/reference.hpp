// The flag reference as files: docs/flags.md, the README's index of flags, and the man page,
// all written from the commands' flag tables (`stampede help --markdown`, `--readme`, `--man`).
#pragma once

#include <string>

namespace stampede::cmd {

/// docs/flags.md: every command, every section, a row a flag (help, values taken, default).
std::string flags_markdown();

/// The README's part between its flags markers: a row a command's section, naming its flags.
std::string readme_flags();

/// stampede.1, in man(7)'s roff: the commands, their flags, the exit statuses.
std::string man_page();

}  // namespace stampede::cmd
